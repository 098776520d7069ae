// What the play page knows of its table: the latest state shown and what was logged of it.

import { root } from "./page.js";

export const game = {
  stateId: -1,
  logged: -1, // the state whose events the log holds last (every earlier one's too)
  unheard: [], // the sentences of the last caught-up state, read out with its state
  view: null,
  table: null,
  playable: null,
  refused: {}, // this seat's cards refused this turn, {code: rules ruled out} (the server's)
  denominatorCards: null, // this seat's +2/Joker/+4 that may be played now (a Set), or null
  unoSaidAt: -1, // state_id at which this seat said UNO (the view does not carry it)
  handKey: "",
  handItems: null, // the hand's cards on the page, by card and copy (render.js)
  lastActing: null,
  pictureKind: "", // "bar" or "line": this practice table's pictures of fractions, else ""
  picturesShown: false, // the server's `pictures.shown` (faded after a few right plays)
  ended: root.dataset.ended === "1", // the table's class session has ended
};

/** Tell whether the table's game was stopped before its end (a class session ended). */
export function stopped() {
  const finished = game.ended || (game.table && game.table.status === "finished");
  return Boolean(finished && game.view && !game.view.game_over);
}

export function playerName(seat) {
  const player = ((game.table && game.table.players) || []).find((p) => p.seat === seat);
  return player ? player.name : `#${seat + 1}`;
}

export function winnerName(winner) {
  if (Array.isArray(winner)) return winner.map(playerName).join(" & ");
  return playerName(winner);
}
