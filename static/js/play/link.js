// The table's live link (the socket, or the stream and its POSTs: live-link.js), what the page
// sends on it, and the delivery checks that ask for what was missed (docs/protocol.md).

import { reasonLost } from "../reason.js";
import { liveLink } from "../live-link.js";
import { $, S, SEAT, TABLE, root } from "./page.js";
import { game, stopped } from "./state.js";
import { showError } from "./log.js";

const MAX_RETRY_DELAY = 15000;
// An update can be lost while the server's message bus restarts: after this long without a
// frame while others are to play, ask for what was missed (the state numbers remove repeats).
const QUIET_SYNC_MS = 15000;
let lastFrameAt = Date.now();
// A "since" request waits for its state (the log's events come first): asked once at a time.
let catchingUp = false;
let live = null; // the table's link (liveLink), opened by main.js once the first state is shown

setInterval(() => {
  const view = game.view;
  const waitingOnOthers = view && !view.game_over && !stopped() && view.acting !== SEAT;
  if (waitingOnOthers && Date.now() - lastFrameAt > QUIET_SYNC_MS && catchUp(true)) {
    lastFrameAt = Date.now();
  }
}, 5000);

/** Tell whether a catch-up ("since" or "sync") waits for its state. */
export const isCatchingUp = () => catchingUp;

/** Mark the catch-up as over: its state came, or it was refused. */
export function catchUpDone() {
  catchingUp = false;
}

/** Ask for the events after the last logged state, then the state (docs/protocol.md). */
export function catchUp(again = false) {
  if (catchingUp && !again) return false;
  const frame = game.logged >= 0 ? { type: "since", state_id: game.logged } : { type: "sync" };
  catchingUp = send(frame);
  return catchingUp;
}

/** Return the query that resumes the page's log: "?since=N" when it has one. */
function sinceQuery() {
  // A page that has its log asks for what it missed while away; a fresh one gets the recent
  // log (marked `replay`) and the state.
  catchingUp = game.logged >= 0;
  return catchingUp ? `?since=${game.logged}` : "";
}

/** Say which link the page uses, quietly (no announcement): the socket or the stream. */
function setLink(kind) {
  root.dataset.link = kind;
  const element = $("play-link");
  if (element) element.textContent = S[`link_${kind}`];
}

/**
 * Open the table's link (once the page's state is shown): frames go to `onFrame`; `onStop`
 * locks the page when the server closes it for good.
 */
export function openLink({ onFrame, onStop }) {
  live = liveLink({
    socketPath: () => `/ws/table/${TABLE}/${sinceQuery()}`,
    streamPath: () => `/tables/${TABLE}/stream/${sinceQuery()}`,
    framesPath: `/tables/${TABLE}/frames/`,
    onLink: setLink,
    onOpen: () => {
      setConnection("connected");
      if (pendingAction) act(pendingAction.action, pendingAction.state_id);
    },
    onFrame: (frame) => {
      lastFrameAt = Date.now();
      onFrame(frame);
    },
    onRetry: (everOpened) => setConnection(everOpened ? "reconnecting" : "offline"),
    onLost: (frame) => {
      // The fallback could not deliver a frame (live-stream.js resends it first). A lost move
      // is said, and the stored state shown tells whether it was made; a lost reason answer is
      // asked again (reason.js) or, once the game moved on, said; a lost "since" or "sync" is
      // asked again by the page's own checks.
      if (frame.type === "reason") {
        if (!reasonLost()) showError({ code: "reason_lost", message: S.reason_lost });
        return;
      }
      if (frame.type !== "action") {
        catchingUp = false;
        return;
      }
      answered();
      showError({ code: "lost", message: S.lost });
      catchUp(true);
    },
    onStop: (why) => {
      // Signed out (maybe in another tab) or no longer seated: nothing here may act any more.
      setConnection(why);
      root.dataset.closed = why;
      $("play-signed-out").hidden = why !== "signed_out";
      $("play-turn").textContent = "";
      if (SEAT !== null) onStop();
    },
    maxDelay: MAX_RETRY_DELAY,
  });
  return live;
}

export function setConnection(status) {
  const element = $("play-connection");
  element.dataset.status = status;
  element.textContent = S[status];
}

export function send(frame) {
  return live !== null && live.send(frame);
}

// An action made before the socket opened (the page shows its state at once): sent on open.
let pendingAction = null;

export function act(action, stateId = game.stateId) {
  const frame = { type: "action", action, state_id: stateId };
  pendingAction = send(frame) ? null : frame;
  if (!pendingAction) expectState(stateId + 1, ANSWER_MS);
}

// Delivery checks (docs/protocol.md, "Delivery through faults"): an action with no answer
// within ANSWER_MS, or an event whose state does not follow, makes the page ask for the state.
const ANSWER_MS = 4000;
let expected = null;

export function expectState(stateId, ms) {
  if (expected && expected.stateId >= stateId) return;
  if (expected) clearTimeout(expected.timer);
  const entry = { stateId };
  entry.timer = setTimeout(() => {
    if (expected === entry) expected = null;
    if (game.stateId < stateId) catchUp(true);
  }, ms);
  expected = entry;
}

/** Stop waiting for an action's answer: it came (a refusal), or the action was lost. */
export function answered() {
  if (expected) clearTimeout(expected.timer);
  expected = null;
}
