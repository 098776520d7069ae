// The play page: one socket per tab, the server is the only judge (docs/protocol.md).
// No framework: render the latest `state` frame, log its `events`, show `error` frames.

import { handleReasonFrame, reasonLost } from "./reason.js";
import { handleExampleFrame } from "./example.js";
import { liveLink } from "./live-link.js";

const root = document.getElementById("play");
const TABLE = Number(root.dataset.table);
const SEAT = root.dataset.seat === "" ? null : Number(root.dataset.seat);
const RULESET = root.dataset.ruleset;
const IN_SESSION = root.dataset.session === "1"; // a table of a class session
const ACCESSIBLE = root.dataset.accessible === "1"; // the UNO Braille markings on every card
// The denominators a wild card may name: the engine's own list, sent by the page.
const DENOMINATORS = JSON.parse(document.getElementById("play-denominators").textContent);
const COLOURS = ["r", "j", "v", "b"];
const SHAPES = { r: "▲", j: "●", v: "■", b: "◆" };
const FQ_NAMES = ["hugo", "manon", "marco", "cathy"];
const MAX_LOG = 60;
const MAX_RETRY_DELAY = 15000;

const S = Object.fromEntries(
  [...document.querySelectorAll("#play-strings [data-s]")].map((el) => [
    el.dataset.s,
    el.textContent.trim(),
  ]),
);
const namesElement = document.getElementById("card-names");
const CARD_NAMES = namesElement ? JSON.parse(namesElement.textContent) : {};

const $ = (id) => document.getElementById(id);
const fmt = (text, values) =>
  text.replace(/%\((\w+)\)[sd]/g, (whole, key) => (key in values ? String(values[key]) : whole));

const game = {
  stateId: -1,
  logged: -1, // the state whose events the log holds last (every earlier one's too)
  unheard: [], // the sentences of the last caught-up state, read out with its state
  view: null,
  table: null,
  playable: null,
  unoSaidAt: -1, // state_id at which this seat said UNO (the view does not carry it)
  handKey: "",
  lastActing: null,
  ended: root.dataset.ended === "1", // the table's class session has ended
};

// ------------------------------------------------------------------ cards

/** Split a card code (the UNO Braille marking) into kind, colour and face value. */
export function parseCard(code) {
  if (code === "couleur" || code === "joker") return { kind: "wild", colour: null, face: code };
  if (code === "+04") return { kind: "+4", colour: null, face: "+4" };
  if (code === "quickos") return { kind: "quickos", colour: null, face: "Quickos" };
  const colour = code.slice(-1);
  const body = code.slice(0, -1).trim();
  if (body === "+02") return { kind: "+2", colour, face: "+2" };
  if (body === "rev" || body === "stop") return { kind: body, colour, face: body };
  if (FQ_NAMES.includes(body)) return { kind: "fq", colour, face: body };
  if (body.includes("/")) {
    const [num, den] = body.split("/").map(Number);
    return { kind: "frac", colour, face: body, num, den };
  }
  return { kind: "n", colour, face: body };
}

/** Return what a card's face shows: its value, or its kind's name in the page's language. */
function faceText(card) {
  if (card.kind === "rev") return "⇄";
  if (card.kind === "stop") return "⊘";
  if (card.kind === "wild") return S[`name_${card.face}`] || card.face;
  if (card.kind === "fq") return card.face[0].toUpperCase() + card.face.slice(1);
  return card.face;
}

/** Return the spoken name of a card: the server's when the page has it, else built here. */
function cardName(code) {
  if (CARD_NAMES[code]) return CARD_NAMES[code];
  const card = parseCard(code);
  const fixed = S[`name_${code}`];
  if (card.colour === null) return fixed || code;
  let label = card.face;
  if (card.kind === "+2" || card.kind === "rev" || card.kind === "stop") {
    label = S[`name_${card.kind === "+2" ? "+2" : card.kind}`];
  } else if (card.kind === "fq") {
    label = card.face[0].toUpperCase() + card.face.slice(1);
  }
  return fmt(S.card_name, { colour: S[`colour_${card.colour}`], label });
}

/** Build the face of a card: value, marking, colour letter and shape (never colour alone). */
function cardFace(code, element) {
  const card = parseCard(code);
  element.classList.add("card", `card--${card.colour || "none"}`);
  element.dataset.card = code;
  const face = document.createElement("span");
  face.className = "card__face";
  face.setAttribute("aria-hidden", "true");
  const corner = document.createElement("span");
  corner.className = "card__corner";
  corner.textContent = card.colour ? `${SHAPES[card.colour]} ${card.colour}` : "★";
  const value = document.createElement("span");
  // The face says the card in the page's language ("Inversion", not the marking "rev").
  const text = faceText(card);
  // Longer values take a smaller size: they never wrap nor clip (play.css).
  const size = text.length >= 7 ? " card__value--xlong" : text.length > 4 ? " card__value--long" : "";
  value.className = `card__value${size}`;
  value.style.setProperty("--len", String(text.length)); // play.css fits it to the card
  value.textContent = text;
  face.append(corner, value);
  // A Reverse or a Skip shows its sign big and its name small, in the page's language.
  if (card.kind === "rev" || card.kind === "stop") {
    const name = document.createElement("span");
    name.className = "card__name";
    name.textContent = S[`name_${card.kind}`] || card.face;
    face.append(name);
  }
  // The UNO Braille marking ("rev j", "+02v") is shown only at an accessible table, where the
  // class reads the markings; elsewhere a child read it as part of the card.
  if (ACCESSIBLE) {
    const mark = document.createElement("span");
    mark.className = code.length >= 7 ? "card__mark card__mark--long" : "card__mark";
    mark.textContent = code;
    face.append(mark);
  }
  element.append(face);
  return element;
}

// ------------------------------------------------------------------ socket

// An update can be lost while the server's message bus restarts: after this long without a
// frame while others are to play, ask for what was missed (the state numbers remove repeats).
const QUIET_SYNC_MS = 15000;
let lastFrameAt = Date.now();
// A "since" request waits for its state (the log's events come first): asked once at a time.
let catchingUp = false;
let live = null; // the table's link (liveLink), opened at the end of this module

setInterval(() => {
  const view = game.view;
  const waitingOnOthers = view && !view.game_over && !stopped() && view.acting !== SEAT;
  if (waitingOnOthers && Date.now() - lastFrameAt > QUIET_SYNC_MS && catchUp(true)) {
    lastFrameAt = Date.now();
  }
}, 5000);

/** Ask for the events after the last logged state, then the state (docs/protocol.md). */
function catchUp(again = false) {
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

/** Open the table's link (at the end of this module: the page's state is shown first). */
const openLink = () => liveLink({
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
    if (expected) clearTimeout(expected.timer);
    expected = null;
    showError({ code: "lost", message: S.lost });
    catchUp(true);
  },
  onStop: (why) => {
    // Signed out (maybe in another tab) or no longer seated: nothing here may act any more.
    setConnection(why);
    root.dataset.closed = why;
    $("play-signed-out").hidden = why !== "signed_out";
    $("play-turn").textContent = "";
    if (SEAT !== null) lockHand();
  },
  maxDelay: MAX_RETRY_DELAY,
});

function setConnection(status) {
  const element = $("play-connection");
  element.dataset.status = status;
  element.textContent = S[status];
}

function send(frame) {
  return live !== null && live.send(frame);
}

// An action made before the socket opened (the page shows its state at once): sent on open.
let pendingAction = null;

function act(action, stateId = game.stateId) {
  const frame = { type: "action", action, state_id: stateId };
  pendingAction = send(frame) ? null : frame;
  if (!pendingAction) expectState(stateId + 1, ANSWER_MS);
}

// Delivery checks (docs/protocol.md, "Delivery through faults"): an action with no answer
// within ANSWER_MS, or an event whose state does not follow, makes the page ask for the state.
const ANSWER_MS = 4000;
let expected = null;

function expectState(stateId, ms) {
  if (expected && expected.stateId >= stateId) return;
  if (expected) clearTimeout(expected.timer);
  const entry = { stateId };
  entry.timer = setTimeout(() => {
    if (expected === entry) expected = null;
    if (game.stateId < stateId) catchUp(true);
  }, ms);
  expected = entry;
}

/** Show a `state` frame unless the page already shows a later one. */
function showState(frame) {
  if (typeof frame.state_id !== "number" || frame.state_id < game.stateId) return;
  if (frame.state_id > game.stateId) clearError();
  game.stateId = frame.state_id;
  game.view = frame.view;
  game.table = frame.table;
  game.playable = Array.isArray(frame.playable) ? new Set(frame.playable) : null;
  game.toPlay = Array.isArray(frame.to_play) ? frame.to_play : null;
  render();
}

function onFrame(frame) {
  if (handleReasonFrame(frame, send, announce)) return; // the reason prompt (reason.js)
  handleExampleFrame(frame, { announce, cardFace }); // the worked example (example.js)
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
    if (expected) clearTimeout(expected.timer);
    expected = null; // the action was answered: refused
    if (frame.code === "bad_since" || frame.code === "unavailable") catchingUp = false;
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
  } else if (catchingUp || caughtUp || game.logged < 0) {
    // The state that ends a catch-up (or the first one, after the recent history).
    catchingUp = false;
    game.logged = Math.max(game.logged, frame.state_id);
    for (const text of game.unheard) announce(text);
  } else if (frame.state_id > game.logged) {
    catchUp(); // a newer state without its events: ask for them
  }
  game.unheard = [];
}

// ------------------------------------------------------------------ log and errors

/** Log one live event; its sentence is also read through the live region. */
function showEvent(event, text, stateId, silent = false) {
  if (event.type === "uno" && event.seat === SEAT) game.unoSaidAt = stateId;
  if (text) logLine(text, event.type, silent);
}

function logLine(text, kind, silent = false) {
  const log = $("play-log");
  const item = document.createElement("li");
  item.textContent = text;
  if (kind) item.dataset.kind = kind;
  log.append(item);
  while (log.children.length > MAX_LOG) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
  if (!silent) announce(text);
}

/** Say a sentence through the ARIA live region (screen readers read it once). */
function announce(text) {
  const announcer = $("play-announcer");
  const line = document.createElement("p");
  line.textContent = text;
  announcer.append(line);
  while (announcer.children.length > 5) announcer.firstElementChild.remove();
}

function showError(frame) {
  const box = $("play-error");
  if (!box) return;
  $("play-error-message").textContent = frame.message || "";
  const explanation = (frame.details && frame.details.explanation) || "";
  $("play-error-explanation").textContent = explanation === frame.message ? "" : explanation;
  $("play-error-explanation").hidden = !$("play-error-explanation").textContent;
  box.dataset.code = frame.code || "";
  box.hidden = false;
}

function clearError() {
  const box = $("play-error");
  if (box) box.hidden = true;
}

// ------------------------------------------------------------------ rendering

function playerName(seat) {
  const player = ((game.table && game.table.players) || []).find((p) => p.seat === seat);
  return player ? player.name : `#${seat + 1}`;
}

function winnerName(winner) {
  if (Array.isArray(winner)) return winner.map(playerName).join(" & ");
  return playerName(winner);
}

/** Pick the singular or plural text for a count, by the page language's plural rule. */
function plural(count, singular, other, values) {
  const one = root.dataset.lang === "fr" ? count <= 1 : count === 1;
  return fmt(one ? singular : other, values);
}

function countText(count) {
  return plural(count, S.cards_one, S.cards_other, { count });
}

/** Tell whether the table's game was stopped before its end (a class session ended). */
function stopped() {
  const finished = game.ended || (game.table && game.table.status === "finished");
  return Boolean(finished && game.view && !game.view.game_over);
}

/** Hide every action and disable the cards: the game is over for this page. */
function lockHand() {
  for (const button of document.querySelectorAll(".play-actions button")) button.hidden = true;
  for (const button of document.querySelectorAll("#play-hand button")) button.disabled = true;
  $("play-hint").hidden = true;
  closeChooser();
}

function render() {
  if (root.dataset.closed) return; // the socket was closed for good: the page says why
  const view = game.view;
  root.dataset.stateId = String(game.stateId);
  root.dataset.turn = view.turn === null ? "" : String(view.turn);
  root.dataset.gameOver = view.game_over ? "1" : "0";
  root.dataset.status = (game.table && game.table.status) || "";
  // Who the game waits on is the engine's answer (docs/engine.md): never worked out here.
  // A stopped game waits on nobody, whatever its last position says.
  const acting = stopped() ? null : view.acting;
  root.dataset.acting = acting === null ? "" : String(acting);
  if (SEAT !== null && acting === SEAT && game.lastActing !== SEAT && !view.round_over) {
    announce(view.turn === null ? S.you_answer : S.your_turn);
  }
  game.lastActing = acting;
  renderBanner(view);
  renderPile(view);
  renderPlayers(view);
  if (SEAT !== null) {
    renderActions(view);
    renderHand(view);
    renderTakeBack();
    if (stopped()) lockHand();
  } else {
    renderTeacher();
  }
}

function renderBanner(view) {
  const banner = $("play-banner");
  let text = "";
  if (view.game_over && view.winner !== null) {
    text = fmt(S.game_over, { name: winnerName(view.winner) });
  } else if (view.round_over && view.round_winner !== null) {
    text = fmt(S.round_over, { name: winnerName(view.round_winner) });
  } else if (stopped()) {
    text = IN_SESSION ? S.session_ended : S.stopped;
  } else if (game.table && game.table.status === "paused") {
    text = S.paused;
  }
  if (game.ended && view.game_over) text = `${text} ${S.session_over}`.trim();
  banner.textContent = text;
  banner.hidden = !text;
  // After the game: the next game of the class session, the way back to the class (or to
  // another practice game). A stopped game, or an ended session, has no next one.
  $("play-after").hidden = !view.game_over && !stopped();
  const next = $("play-next-game");
  if (next) next.hidden = !view.game_over || game.ended;

  const turn = $("play-turn");
  const acting = stopped() ? null : view.acting;
  let turnText = "";
  if (!view.round_over && acting !== null) {
    const answering = view.turn === null;
    if (acting === SEAT) turnText = answering ? S.you_answer : S.your_turn;
    else turnText = answering ? fmt(S.answer_of, { name: playerName(acting) }) : fmt(S.turn_of, { name: playerName(acting) });
  }
  turn.textContent = turnText;
  turn.classList.toggle("play-turn--mine", acting === SEAT && SEAT !== null);
}

function renderPile(view) {
  const top = $("play-top");
  top.replaceChildren();
  if (view.top) {
    const card = cardFace(view.top, document.createElement("div"));
    card.classList.add("card--big");
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", fmt(S.top_card, { card: cardName(view.top) }));
    top.append(card);
  }
  // What may go on the pile, in words the server built from the engine's facts (to_play).
  const list = $("play-to-play");
  const parts = stopped() ? [] : game.toPlay || [];
  list.replaceChildren(
    ...(parts.length ? parts : ["–"]).map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }),
  );
  $("play-direction").textContent = view.direction === 1 ? S.clockwise : S.anticlockwise;
  $("play-pile-size").textContent = countText(view.draw_pile_size);
  renderTimer();
}

function renderTimer() {
  const deadline = game.table && game.table.deadline;
  $("play-timer-row").hidden = !deadline;
  if (!deadline) return;
  const left = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
  // Without a turn timer, a deadline is the wait for a player who has not come to the table.
  const settings = game.table.settings || {};
  const acting = game.view ? game.view.acting : null;
  const arrival = !settings.turn_timer && acting !== null && acting !== SEAT;
  $("play-timer").textContent = arrival
    ? fmt(S.arrival, { name: playerName(acting), count: left })
    : fmt(S.seconds, { count: left });
}

function renderPlayers(view) {
  const list = $("play-players");
  list.replaceChildren();
  const players = (game.table && game.table.players) || [];
  const acting = stopped() ? null : view.acting;
  for (let seat = 0; seat < view.players; seat += 1) {
    const info = players.find((p) => p.seat === seat) || { name: `#${seat + 1}` };
    const item = document.createElement("li");
    item.className = "player";
    item.dataset.seat = String(seat);
    if (seat === acting) item.classList.add("player--acting");
    if (seat === SEAT) item.classList.add("player--me");
    const name = document.createElement("span");
    name.className = "player__name";
    name.textContent = seat === SEAT ? `${info.name} (${S.you})` : info.name;
    const count = document.createElement("span");
    count.className = "player__count";
    count.textContent = countText(view.hand_sizes[seat]);
    item.append(name, count);
    const badges = [];
    if (seat === acting) badges.push([view.turn === null ? S.answering : S.playing, "turn"]);
    if (view.uno_window === seat) badges.push([S.uno_uncalled, "uncalled"]);
    else if (view.hand_sizes[seat] === 1) badges.push([S.uno, "uno"]);
    if (info.bot) badges.push([S.bot, "bot"]);
    if (info.takeover) badges.push([S.takeover, "bot"]);
    if (view.scores && (view.scores[seat] || view.round > 1)) {
      const score = view.scores[seat];
      badges.push([plural(score, S.points_one, S.points, { score }), "score"]);
    }
    for (const [text, kind] of badges) {
      const badge = document.createElement("span");
      badge.className = `badge player__badge player__badge--${kind}`;
      badge.textContent = text;
      item.append(badge);
    }
    list.append(item);
  }
}

function show(id, visible, label) {
  const button = $(id);
  button.hidden = !visible;
  if (label !== undefined) button.textContent = label;
}

function renderActions(view) {
  const hand = view.hand;
  const myTurn = view.turn === SEAT && !view.round_over;
  const awaiting = view.awaiting;
  const answering = view.turn === null && view.acting === SEAT; // a +2/+4 awaits this seat
  const holdingTwo = hand.length === 2 && (myTurn || answering) && game.unoSaidAt !== game.stateId;
  show("act-draw", myTurn && view.drawn === null);
  show("act-pass", myTurn && view.drawn !== null);
  show("act-uno", holdingTwo || view.uno_window === SEAT);
  const catchable = view.uno_window !== null && view.uno_window !== SEAT;
  show("act-catch", catchable, catchable ? fmt(S.catch, { name: playerName(view.uno_window) }) : undefined);
  show("act-challenge", Boolean(answering && awaiting.kind === "challenge"));
  const total = awaiting && awaiting.total;
  show("act-accept", Boolean(answering), total ? plural(total, S.take_one, S.take, { count: total }) : S.accept);
  const quickos = awaiting && awaiting.kind === "quickos" && hand.includes("quickos");
  show("act-quickos", Boolean(quickos));
  show("act-next", view.round_over && !view.game_over);

  let hint = "";
  if (myTurn && view.drawn) hint = fmt(S.hint_drawn, { card: cardName(view.drawn) });
  else if (answering && awaiting.kind === "stack") hint = S.hint_stack;
  else if (answering && awaiting.kind === "challenge") hint = S.hint_challenge;
  else if (quickos) hint = S.hint_quickos;
  $("play-hint").textContent = hint;
  $("play-hint").hidden = !hint;
  // A button that just disappeared had the focus: give it to the first visible action or card.
  if (document.activeElement && document.activeElement.hidden) focusSomewhere();
}

/** Put the focus on the first card of the hand (its heading when there is none). */
function focusHand() {
  const card = document.querySelector("#play-hand button:not([disabled])");
  const target = card || $("hand-title");
  target.scrollIntoView({ block: "nearest" });
  target.focus();
}

function focusSomewhere() {
  const target =
    document.querySelector(".play-actions button:not([hidden])") ||
    document.querySelector("#play-hand button");
  if (target) target.focus();
}

function renderHand(view) {
  const playable = game.playable;
  const key = `${view.hand.join("|")}#${playable ? [...playable].join("|") : ""}#${view.drawn}`;
  $("hand-count").textContent = `(${countText(view.hand.length)})`;
  if (key === game.handKey) return;
  game.handKey = key;
  const list = $("play-hand");
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  const focusIndex = focused ? Number(focused.dataset.index) : -1;
  list.replaceChildren();
  view.hand.forEach((code, index) => {
    const item = document.createElement("li");
    const button = cardFace(code, document.createElement("button"));
    button.type = "button";
    button.dataset.index = String(index);
    let label = cardName(code);
    if (playable && playable.has(code)) {
      button.classList.add("card--playable");
      label += `, ${S.playable}`;
      const flag = document.createElement("span");
      flag.className = "card__playable";
      flag.setAttribute("aria-hidden", "true");
      flag.textContent = `✓ ${S.playable}`;
      button.append(flag);
    }
    if (view.drawn === code) button.classList.add("card--drawn");
    button.setAttribute("aria-label", label);
    button.addEventListener("click", () => playCard(code, button));
    item.append(button);
    list.append(item);
  });
  if (!view.hand.length) {
    const empty = document.createElement("li");
    empty.className = "hand__empty";
    empty.textContent = S.hand_empty;
    list.append(empty);
  }
  if (focusIndex >= 0) {
    const buttons = list.querySelectorAll("button");
    const next = buttons[Math.min(focusIndex, buttons.length - 1)];
    if (next) next.focus();
    else focusSomewhere();
  }
}

/** Offer "take my seat back" while a robot plays this seat (after turns left to the timer). */
function renderTakeBack() {
  const form = $("play-takeback");
  const me = ((game.table && game.table.players) || []).find((p) => p.seat === SEAT);
  if (form) form.hidden = !(me && me.takeover && game.table.status === "playing");
}

function renderTeacher() {
  const status = game.table && game.table.status;
  const pauseInput = document.querySelector("[data-pause-input]");
  const pauseButton = document.querySelector("[data-pause-button]");
  if (pauseInput && status) {
    pauseInput.value = status === "paused" ? "off" : "on";
    pauseButton.textContent = status === "paused" ? S.resume : S.pause;
    pauseButton.hidden = status === "finished";
  }
  for (const player of (game.table && game.table.players) || []) {
    const input = document.querySelector(`[data-bot-input="${player.seat}"]`);
    const button = document.querySelector(`[data-bot-button="${player.seat}"]`);
    if (!input || !button) continue;
    input.value = player.takeover ? "off" : "on";
    button.textContent = fmt(player.takeover ? S.give_back : S.let_bot, { name: player.name });
  }
}

// ------------------------------------------------------------------ choosing and playing

let chooserDone = null;

/** Ask one question with buttons; resolve with the chosen value, reject on Cancel/Escape. */
function choose(title, options) {
  closeChooser();
  const panel = $("play-chooser");
  $("chooser-title").textContent = title;
  const box = $("chooser-options");
  box.replaceChildren();
  return new Promise((resolve, reject) => {
    chooserDone = reject;
    options.forEach((option) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `button chooser__option${option.colour ? ` chooser__option--${option.colour}` : ""}`;
      button.textContent = option.label;
      button.dataset.value = option.value === null ? "" : String(option.value);
      button.addEventListener("click", () => {
        chooserDone = null;
        panel.hidden = true;
        resolve(option.value);
      });
      box.append(button);
    });
    panel.hidden = false;
    // The question itself takes the focus, not its first answer: Enter pressed twice (to play
    // the card, then again) must not answer for the child. Tab then reaches the answers.
    queueMicrotask(() => $("chooser-title").focus());
  });
}

function closeChooser() {
  const panel = $("play-chooser");
  if (!panel || panel.hidden) return;
  panel.hidden = true;
  if (chooserDone) {
    const reject = chooserDone;
    chooserDone = null;
    reject(new Error("cancelled"));
  }
}

function colourOptions() {
  return COLOURS.map((c) => ({ label: `${SHAPES[c]} ${S[`colour_${c}`]} (${c})`, value: c, colour: c }));
}

function targetOptions(view) {
  const out = view.eliminated || [];
  const seats = [];
  for (let seat = 0; seat < view.players; seat += 1) {
    if (seat !== SEAT && !out.includes(seat)) seats.push({ label: playerName(seat), value: seat });
  }
  return seats;
}

/** Say which fraction rule a play uses: asked only when both could apply by their looks. */
async function fractionClaim(card, view) {
  if (view.reference) {
    const referenceDen = Number(view.reference.split("/")[1]);
    if (card.den !== referenceDen) return "equal";
    return choose(S.choose_rule, [
      { label: S.rule_equal, value: "equal" },
      { label: S.rule_denominator, value: "denominator" },
    ]);
  }
  return view.denominator ? "denominator" : null;
}

async function playCard(code, button) {
  const view = game.view;
  if (!view || SEAT === null) return;
  const stateId = game.stateId;
  const card = parseCard(code);
  if (card.kind === "quickos") {
    act({ type: "quickos" }, stateId); // Quickos answers someone's +4: it has its own action
    return;
  }
  const action = { type: "play", card: code };
  try {
    if (RULESET === "fractions") {
      if (card.kind === "frac") {
        const claim = await fractionClaim(card, view);
        if (claim) action.claim = claim;
      } else if (card.kind === "+2" || card.kind === "wild" || card.kind === "+4") {
        const options = DENOMINATORS.map((d) => ({ label: String(d), value: d }));
        options.push({ label: S.no_denominator, value: null });
        const denominator = await choose(S.choose_denominator, options);
        if (denominator !== null) action.denominator = denominator;
      }
    } else if (card.kind === "wild" || card.kind === "+4") {
      action.colour = await choose(S.choose_colour, colourOptions());
    } else if (card.kind === "fq") {
      const functions = (view.options && view.options.family_quick_functions) || [];
      action.function = await choose(
        S.choose_function,
        functions.map((f) => ({ label: S[`fn_${f}`] || f, value: f })),
      );
      if (action.function === "swap" && view.hand.length > 1) {
        action.target = await choose(S.choose_target, targetOptions(view));
      }
    } else if (card.kind === "n" && card.face === "7" && view.options && view.options.seven_o && view.hand.length > 1) {
      action.target = await choose(S.choose_target, targetOptions(view));
    }
  } catch {
    if (button.isConnected) button.focus();
    return;
  }
  if (button.isConnected) button.focus(); // the chooser is gone: keep the keyboard in the hand
  act(action, stateId);
}

function onAction(kind) {
  const view = game.view;
  if (!view) return;
  if (kind === "catch") act({ type: "catch", target: view.uno_window });
  else act({ type: kind });
}

// ------------------------------------------------------------------ start

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
live = openLink();

// For the browser tests and the curious: the live link ("socket" or "stream"), the socket
// (null on the stream) and the latest state.
window.unoclassPlay = {
  link: () => live.kind(),
  socket: () => live.socket(),
  state: () => ({ ...game }),
  cardName,
};
