// Motion that shows what happened (issue 30 §2): a card flies to the pile (0.4 s), drawn cards
// come to the hand (0.5 s), short callouts (UNO!, +2, +4, Reverse: under 1 s). Transform and
// opacity only (play-table.css), never the focus. None at all under prefers-reduced-motion or
// with the table's "animations" setting off; a catch-up shows its final state at once.
// The table says which holds now: data-motion="on|off" on #play (docs/protocol.md).

import { S, root, setData } from "./page.js";
import { game } from "./state.js";

const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
const CALLOUT_MS = 900;
let calloutTimer = null;

/** Tell whether motion is allowed now, and say it on the table (data-motion). */
export function motionOn() {
  const settings = (game.table && game.table.settings) || {};
  const on = !(reduced && reduced.matches) && settings.animations !== false;
  setData(root, "motion", on ? "on" : "off");
  return on;
}

if (reduced && reduced.addEventListener) reduced.addEventListener("change", motionOn);
motionOn();

/** Mark an element to play a CSS animation once (only when motion is on and the state is live). */
export function animate(element, className) {
  if (!element || !game.live || !motionOn()) return;
  element.classList.add(className);
  element.addEventListener("animationend", () => element.classList.remove(className), { once: true });
}

/** Show a short callout over the pile for a live event (UNO!, +2, +4, Reverse). */
export function callout(event) {
  if (!motionOn()) return;
  let text = "";
  if (event.type === "uno") text = S.uno;
  else if (event.type === "played" && typeof event.card === "string") {
    if (event.card.startsWith("+02")) text = "+2";
    else if (event.card === "+04") text = "+4";
    else if (event.card.startsWith("rev")) text = "⇄";
  }
  const box = document.getElementById("play-callout");
  if (!text || !box) return;
  box.textContent = text;
  box.classList.remove("play-callout--on");
  // Restart the animation: the class is put back on the next frame.
  requestAnimationFrame(() => box.classList.add("play-callout--on"));
  clearTimeout(calloutTimer);
  calloutTimer = setTimeout(() => {
    box.textContent = "";
    box.classList.remove("play-callout--on");
  }, CALLOUT_MS);
}
