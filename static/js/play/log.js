// The move log (the last MAX_LOG lines), the screen readers' live region and the error box.

import { $, SEAT } from "./page.js";
import { game } from "./state.js";
import { callout } from "./motion.js";

const MAX_LOG = 60;

/** Log one live event; its sentence is also read through the live region. */
export function showEvent(event, text, stateId, silent = false) {
  if (event.type === "uno" && event.seat === SEAT) game.unoSaidAt = stateId;
  if (event.type === "played") {
    game.lastPlayedSeat = event.seat;
    // The end of game's own line: the equal fractions this child found (this page saw).
    if (event.seat === SEAT && (event.rule === "equal" || event.claim === "equal")) game.foundEqual = (game.foundEqual || 0) + 1;
  }
  // The last move, big by the pile: a play, a draw, a UNO (not the turn's "X plays now").
  if (text && event.type !== "turn") {
    const last = $("play-last");
    if (last) last.textContent = text;
  }
  if (!silent) callout(event); // a catch-up shows its final state at once: no callout
  if (text) logLine(text, event.type, silent);
}

export function logLine(text, kind, silent = false) {
  const log = $("play-log");
  const item = document.createElement("li");
  item.textContent = text;
  if (kind) item.dataset.kind = kind;
  log.append(item);
  while (log.children.length > MAX_LOG) log.firstElementChild.remove();
  scrollLogOnce(log);
  if (!silent) announce(text);
}

let scrollPending = false;
let logInView = true;
const logBox = $("play-log");
// Whether the log is on screen, told by the browser without a layout of ours; on a phone it
// sits under the hand. Scrolled to its last line when it comes into view.
if (logBox && window.IntersectionObserver) {
  new IntersectionObserver((entries) => {
    logInView = entries.some((entry) => entry.isIntersecting);
    if (logInView) scrollLogOnce(logBox);
  }).observe(logBox);
}

/** Scroll the log to its last line once a frame, only while it is seen: reading its height
 *  lays out the page, once a line before (110 ms tasks at 4× throttling, docs/performance.md). */
function scrollLogOnce(log) {
  if (scrollPending || !logInView) return;
  scrollPending = true;
  requestAnimationFrame(() => {
    scrollPending = false;
    log.scrollTop = log.scrollHeight;
  });
}

/** Say a sentence through the ARIA live region (screen readers read it once). */
export function announce(text) {
  const announcer = $("play-announcer");
  const line = document.createElement("p");
  line.textContent = text;
  announcer.append(line);
  while (announcer.children.length > 5) announcer.firstElementChild.remove();
}

export function showError(frame) {
  const box = $("play-error");
  if (!box) return;
  $("play-error-message").textContent = frame.message || "";
  const explanation = (frame.details && frame.details.explanation) || "";
  $("play-error-explanation").textContent = explanation === frame.message ? "" : explanation;
  $("play-error-explanation").hidden = !$("play-error-explanation").textContent;
  box.dataset.code = frame.code || "";
  box.hidden = false;
}

export function clearError() {
  const box = $("play-error");
  if (box) box.hidden = true;
}
