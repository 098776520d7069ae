// The play page: one socket per tab, the server is the only judge (docs/protocol.md).
// No framework: render the latest `state` frame, log its `events`, show `error` frames.
// The modules, by job: page (the elements and the words), state (what the page knows),
// cards, log, link (the live link and the delivery checks), frames (what comes in), render,
// chooser (the questions before a play); this one starts the page.

import { $, SEAT } from "./page.js";
import { game } from "./state.js";
import { cardName } from "./cards.js";
import { openLink, setConnection } from "./link.js";
import { onFrame, showState } from "./frames.js";
import { focusHand, lockHand, renderTimer } from "./render.js";
import { closeChooser, onAction } from "./chooser.js";

if (SEAT !== null) {
  for (const button of document.querySelectorAll(".play-actions [data-action]")) {
    button.addEventListener("click", () => onAction(button.dataset.action));
  }
  $("chooser-cancel").addEventListener("click", closeChooser);
  const shortcuts = { d: "act-draw", u: "act-uno", p: "act-pass" };
  // The skip link (the page's first tab stop) and the H key put the focus on the first card.
  const skip = $("skip-to-hand");
  if (skip) {
    skip.addEventListener("click", (event) => {
      event.preventDefault();
      focusHand();
    });
  }
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      closeChooser();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (event.key.toLowerCase() === "h") {
      event.preventDefault();
      focusHand();
      return;
    }
    const id = shortcuts[event.key.toLowerCase()];
    if (!id) return;
    const button = $(id);
    if (button && !button.hidden) {
      event.preventDefault();
      button.click();
    }
  });
}
setInterval(() => game.table && game.table.deadline && renderTimer(), 1000);
setConnection("connecting");
// The state the page was served with: shown at once, so nothing jumps when the socket answers.
const firstState = document.getElementById("play-first-state");
if (firstState) showState(JSON.parse(firstState.textContent));
const live = openLink({ onFrame, onStop: lockHand });

// For the browser tests and the curious: the live link ("socket" or "stream"), the socket
// (null on the stream) and the latest state.
window.unoclassPlay = {
  link: () => live.kind(),
  socket: () => live.socket(),
  state: () => ({ ...game }),
  cardName,
};
