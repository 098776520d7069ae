// The table's live link (the socket, or the stream and its POSTs: live-link.js), what the page
// sends on it, and the delivery checks that ask for what was missed (docs/protocol.md).

import { reasonLost } from "../reason.js";
import { liveLink } from "../live-link.js";
import { $, S, SEAT, TABLE, root } from "./page.js";
import { game, stopped } from "./state.js";
import { announce, showError } from "./log.js";

const MAX_RETRY_DELAY = 15000;
// An update can be lost while the server's message bus restarts: after this long without a
// frame while others are to play, ask for what was missed (the state numbers remove repeats).
const QUIET_SYNC_MS = 15000;
let lastFrameAt = Date.now();
// A "since" request waits for its state (the log's events come first): asked once at a time.
let catchingUp = false;
let live = null; // the table's link (liveLink), opened by main.js once the first state is shown

// The page's own heartbeat (docs/protocol.md, "ping"): a `ping` every PING_MS while the link is
// open, answered `pong`. Nothing heard for LOST_MS, with a ping unanswered for PONG_WAIT_MS (a
// tab back from the background has had no time to ask), and the page says the connection is
// lost: an offline phone must not say "Connected" with a stale turn (issue 30).
const PING_MS = 2000;
const LOST_MS = 3500;
const PONG_WAIT_MS = 1500;
const HEARTBEAT_TICK_MS = 250;
let lastHeardAt = Date.now();
let lastPingAt = -Infinity;
let unansweredSince = null; // when the first ping since the last frame heard went
let connection = "connecting";

setInterval(() => {
  if (live === null || (connection !== "connected" && connection !== "link_lost")) return;
  const now = Date.now();
  if (now - lastPingAt >= PING_MS) {
    lastPingAt = now;
    if (live.ping() && unansweredSince === null) unansweredSince = now;
  }
  const silent = now - lastHeardAt > LOST_MS && unansweredSince !== null;
  if (connection === "connected" && silent && now - unansweredSince >= PONG_WAIT_MS) {
    setConnection("link_lost");
  }
}, HEARTBEAT_TICK_MS);

/** Note a frame from the server: the link is alive; a move held while it was lost goes. */
function heard() {
  lastHeardAt = Date.now();
  unansweredSince = null;
  if (connection === "link_lost") {
    setConnection("connected");
    sendPending();
  }
}

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
      lastHeardAt = Date.now();
      unansweredSince = null;
      setConnection("connected");
      sendPending();
    },
    onFrame: (frame) => {
      heard();
      if (frame.type === "pong") return; // the heartbeat's answer: nothing else to do
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
      showPending(null);
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
  connection = status;
  const element = $("play-connection");
  element.dataset.status = status;
  element.textContent = S[status];
}

export function send(frame) {
  return live !== null && live.send(frame);
}

// An action made before the link opened (the page shows its state at once), or while it is
// lost: held, said to be waiting, and sent when the link is back (or said not sent).
let pendingAction = null;

/** Send an action, or hold it while the link is away; return true when it was held. */
export function act(action, stateId = game.stateId) {
  const frame = { type: "action", action, state_id: stateId };
  if (connection !== "link_lost" && send(frame)) {
    pendingAction = null;
    showPending(null);
    expectState(stateId + 1, ANSWER_MS);
    return false;
  }
  pendingAction = frame;
  showPending(S.pending);
  return true;
}

/** Send the held action now that the link is back; say it went, or that it was not sent. */
function sendPending() {
  const frame = pendingAction;
  if (!frame) return;
  if (frame.state_id !== game.stateId) {
    // The game moved on meanwhile (a robot's turn, another's move): the move was for a table
    // that is no longer there. The server would refuse it; the page says so itself, in the
    // error box (cleared by the next state).
    pendingAction = null;
    showPending(null);
    showError({ code: "not_sent", message: S.pending_dropped });
    return;
  }
  act(frame.action, frame.state_id);
  if (!pendingAction) announce(S.pending_sent);
}

/** Show (and say once) that a move waits for the link; null hides the line. */
function showPending(text) {
  const element = $("play-pending");
  if (!element) return;
  root.dataset.pending = text ? "1" : "";
  // The card of the held move is marked (chooser.js) until it goes, is dropped or replaced.
  for (const card of document.querySelectorAll("#play-hand [data-pending]")) {
    delete card.dataset.pending;
  }
  if (!text) {
    element.hidden = true;
    element.textContent = "";
    return;
  }
  if (element.textContent !== text || element.hidden) announce(text);
  element.textContent = text;
  element.hidden = false;
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
