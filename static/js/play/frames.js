// The frames the server sends (docs/protocol.md): states shown in order, their events logged
// once each, the reason prompt and the worked example handed to their own modules.

import { handleReasonFrame } from "../reason.js";
import { handleExampleFrame } from "../example.js";
import { cardFace } from "./cards.js";
import { announce, clearError, logLine, showError, showEvent } from "./log.js";
import { answered, catchUp, catchUpDone, expectState, isCatchingUp, send } from "./link.js";
import { render } from "./render.js";
import { root, setData } from "./page.js";
import { game } from "./state.js";

/** Show a `state` frame unless the page already shows a later one. */
export function showState(frame) {
  if (typeof frame.state_id !== "number" || frame.state_id < game.stateId) return;
  if (frame.state_id > game.stateId) clearError();
  // Only the next state, with its own events, moves anything: a first state, a catch-up or a
  // reconnect shows the final state at once (motion.js).
  game.live = game.stateId >= 0 && frame.state_id === game.stateId + 1 && Array.isArray(frame.events);
  game.stateId = frame.state_id;
  game.view = frame.view;
  game.table = frame.table;
  game.playable = Array.isArray(frame.playable) ? new Set(frame.playable) : null;
  game.toPlay = Array.isArray(frame.to_play) ? frame.to_play : null;
  game.refused = frame.refused && typeof frame.refused === "object" ? frame.refused : {};
  game.denominatorCards = Array.isArray(frame.denominator_cards)
    ? new Set(frame.denominator_cards)
    : null;
  // A practice table's pictures (docs/protocol.md): their kind never changes at a table.
  const pictures = frame.pictures && typeof frame.pictures === "object" ? frame.pictures : null;
  if (pictures && !game.pictureKind && ["bar", "line"].includes(pictures.kind)) game.pictureKind = pictures.kind;
  game.picturesShown = Boolean(pictures && pictures.shown);
  render();
}

export function onFrame(frame) {
  if (handleReasonFrame(frame, send, announce)) return; // the reason prompt (reason.js)
  handleExampleFrame(frame, { announce, cardFace, send }); // the worked example (example.js)
  if (frame.type === "state") {
    logState(frame);
    showState(frame);
    game.historyShown = true; // the socket's history comes before its first state
  } else if (frame.type === "event") {
    const event = frame.event || {};
    if (frame.replay) {
      // Recent history sent on a fresh connect: fill an empty log once, silently.
      if (!game.historyShown && frame.text) logLine(frame.text, event.type, true);
      return;
    }
    // The events of states this page missed (from the server's log), in order: each once.
    // Logged silently (a page back after 100 moves must not read out 100 sentences); the
    // last state's are read out when the catch-up's state arrives.
    if (typeof frame.state_id !== "number" || frame.state_id < game.logged) return;
    if (frame.state_id === game.logged && game.batch !== frame.state_id) return;
    showEvent(event, frame.text, frame.state_id, true);
    if (game.batch !== frame.state_id) game.unheard = [];
    if (frame.text) game.unheard.push(frame.text);
    game.logged = frame.state_id;
    game.batch = frame.state_id;
    if (frame.state_id > game.stateId) expectState(frame.state_id, 2000);
  } else if (frame.type === "notice" && frame.notice === "activity_ended") {
    game.ended = true; // the class session has ended, even if this game was over already
    if (game.view) render();
  } else if (frame.type === "error") {
    answered(); // the action was answered: refused
    if (frame.code === "bad_since" || frame.code === "unavailable") catchUpDone();
    // A refused fraction resets the server's count of right plays (lessons.attempts.pictures):
    // faded pictures come back now, as the next state will say.
    if (game.pictureKind && frame.details && frame.details.explanation && !game.picturesShown) {
      game.picturesShown = true;
      setData(root, "pictures", "shown");
    }
    showError(frame);
  }
}

/** Log a state's events, in order, before it is shown; a gap asks for the missed ones. */
function logState(frame) {
  // The state that follows its events' catch-up: also the end of a stream the browser
  // reopened by itself with Last-Event-ID (no "since" asked by this page).
  const caughtUp = game.batch !== null && game.batch === frame.state_id;
  game.batch = null;
  if (typeof frame.state_id !== "number") return;
  if (Array.isArray(frame.events)) {
    // A change's events come with its state. One that does not follow the last logged state
    // means states were missed: the log sends them all, this one's included, in order.
    if (game.logged >= 0 && frame.state_id > game.logged + 1) catchUp();
    else if (frame.state_id > game.logged) {
      for (const item of frame.events) showEvent(item.event || {}, item.text, frame.state_id);
      game.logged = frame.state_id;
    }
  } else if (isCatchingUp() || caughtUp || game.logged < 0) {
    // The state that ends a catch-up (or the first one, after the recent history).
    catchUpDone();
    game.logged = Math.max(game.logged, frame.state_id);
    for (const text of game.unheard) announce(text);
  } else if (frame.state_id > game.logged) {
    catchUp(); // a newer state without its events: ask for them
  }
  game.unheard = [];
}
