// The warm-up page (templates/lessons/warmup/round.html): plain forms that work without this
// script; it adds the keys (1-9 choose a card or an answer, Escape skips the question), puts
// the focus on the question so a screen reader reads it first, and draws the worked example
// at the end on a number line (example.js, the play page's own). The key hints show where a
// keyboard is the input (warmup.css) and, on any device, from the first key pressed (kept
// for the next items: each is a page of its own).
import { showExample } from "./example.js";

const $ = (id) => document.getElementById(id);
const KEYS_SEEN = "unoclass-warmup-keys";

function showKeys() {
  const root = $("warmup");
  if (root) root.dataset.keys = "on";
}

try {
  if (sessionStorage.getItem(KEYS_SEEN)) showKeys();
} catch {
  // No storage (a private window): the hints show again from the next key press.
}

const question = $("warmup-question");
if (question) question.focus();

const data = $("warmup-example-data");
if (data) {
  try {
    showExample(JSON.parse(data.textContent));
  } catch {
    // A broken example is left out: the words above still say it.
  }
}

document.addEventListener("keydown", (event) => {
  showKeys();
  try {
    sessionStorage.setItem(KEYS_SEEN, "1");
  } catch {
    // See above.
  }
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
  if (event.key === "Escape") {
    const skip = $("warmup-skip");
    if (skip) {
      event.preventDefault();
      skip.click();
    }
    return;
  }
  if (!/^[1-9]$/.test(event.key)) return;
  const button = document.querySelector(`[data-key="${event.key}"]`);
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

// One tap answers once: a second tap while the page loads would be refused anyway.
for (const form of document.querySelectorAll("form[data-once]")) {
  form.addEventListener("submit", () => {
    setTimeout(() => {
      for (const button of form.querySelectorAll("button")) button.disabled = true;
    }, 0);
  });
}
