// The new class session form: only the chosen game's options show (without this script, all
// of them show, each group under its game's name).
const game = document.getElementById("id_ruleset");
const groups = [...document.querySelectorAll("[data-for-ruleset]")];

function showChosen() {
  for (const group of groups) group.hidden = group.dataset.forRuleset !== game.value;
}

if (game) {
  game.addEventListener("change", showChosen);
  showChosen();
}
