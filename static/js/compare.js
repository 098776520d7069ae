// The compare question (docs/protocol.md, "compare"): after a refused trap at a practice
// table the worked example (example.js) carries `compare`. Under the number line the page asks
// "Which one is at the same place as the pile's card?" with two fractions; one tap or one key
// answers (never more: the choices lock), then the page says whether it was the one and the
// principle in one sentence, in the page's live region. Closing the example (OK, Escape, the
// next turn) dismisses the question unanswered. The answer is logged, never evidence.

const $ = (id) => document.getElementById(id);

let sendFrame = null;
let say = null;

function box() {
  return $("play-example-compare");
}

function valid(compare) {
  return (
    compare &&
    typeof compare.question === "string" &&
    Array.isArray(compare.choices) &&
    compare.choices.length === 2 &&
    compare.choices.every((choice) => choice && typeof choice.text === "string")
  );
}

/** Hide the question (the example closed, or a refusal without one). */
export function closeCompare() {
  const element = box();
  if (!element) return;
  element.hidden = true;
  $("play-example-compare-choices").replaceChildren();
  $("play-example-compare-result").replaceChildren();
}

function answer(compare, button) {
  const choices = $("play-example-compare-choices");
  for (const other of choices.querySelectorAll("button")) {
    other.disabled = other !== button;
    other.setAttribute("aria-pressed", String(other === button));
  }
  button.disabled = true;
  const text = button.dataset.choice;
  if (sendFrame) sendFrame({ type: "compare", choice: text });
  const words = [text === compare.equal ? compare.right : compare.wrong, compare.principle]
    .filter((line) => typeof line === "string" && line);
  const result = $("play-example-compare-result");
  result.replaceChildren(
    ...words.map((line, index) => {
      const p = document.createElement("p");
      p.textContent = line;
      if (index === words.length - 1) p.className = "example__principle";
      return p;
    }),
  );
  if (say) say(words.join(" "));
  const ok = $("play-example-ok");
  if (ok) ok.focus(); // answered: the next key closes the example
}

/**
 * Show the question of `compare` under the example; return what to say and the button to
 * focus, or null when there is no question. `tools`: { announce, send } from the play page.
 */
export function openCompare(compare, tools) {
  closeCompare();
  const element = box();
  if (!element || !valid(compare)) return null;
  sendFrame = tools && tools.send ? tools.send : null;
  say = tools && tools.announce ? tools.announce : null;
  $("play-example-compare-question").textContent = compare.question;
  const choices = $("play-example-compare-choices");
  for (const choice of compare.choices) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button--secondary example__choice";
    button.dataset.choice = choice.text;
    button.textContent = choice.text;
    button.addEventListener("click", () => answer(compare, button));
    choices.append(button);
  }
  element.hidden = false;
  return { spoken: compare.question, focus: choices.querySelector("button") };
}
