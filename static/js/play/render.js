// Drawing a state: the banner, the pile, the players, the actions, the hand, the teacher's
// buttons. Who the game waits on and what may be played come from the server (docs/engine.md).

import { $, IN_SESSION, RULESET, S, SEAT, countText, fmt, plural, root, setData, setText } from "./page.js";
import { game, playerName, stopped, winnerName } from "./state.js";
import { cardFace, cardName, parseCard } from "./cards.js";
import { announce } from "./log.js";
import { animate, motionOn } from "./motion.js";
import { renderSound, yourTurnSound } from "./sound.js";
import { bothRulesLookPossible, closeChooser, openRules, playCard } from "./chooser.js";

/** Hide every action and disable the cards: the game is over for this page. */
export function lockHand() {
  for (const button of document.querySelectorAll(".play-actions button")) button.hidden = true;
  for (const button of document.querySelectorAll("#play-hand button")) button.disabled = true;
  for (const rules of document.querySelectorAll("#play-hand .card-rules")) rules.remove();
  $("play-hint").hidden = true;
  closeChooser();
}

export function render() {
  if (root.dataset.closed) return; // the socket was closed for good: the page says why
  const view = game.view;
  root.dataset.stateId = String(game.stateId);
  setData(root, "turn", view.turn === null ? "" : String(view.turn));
  setData(root, "gameOver", view.game_over ? "1" : "0");
  setData(root, "status", (game.table && game.table.status) || "");
  // Who the game waits on is the engine's answer (docs/engine.md): never worked out here.
  // A stopped game waits on nobody, whatever its last position says.
  const acting = stopped() ? null : view.acting;
  setData(root, "acting", acting === null ? "" : String(acting));
  motionOn(); // the table's setting may have changed: data-motion says it
  // Pictures of the fractions (a practice table's, docs/protocol.md `pictures`): the server
  // says whether they show now; faded, they stay in place, unseen (play-table.css).
  setData(root, "pictures", game.pictureKind ? (game.picturesShown ? "shown" : "faded") : "");
  renderSound(); // and the teacher may have muted the session
  if (SEAT !== null && acting === SEAT && game.lastActing !== SEAT && !view.round_over) {
    announce(view.turn === null ? S.you_answer : S.your_turn);
    yourTurnSound();
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
  } else if (game.table && game.table.settings && game.table.settings.gather) {
    // A class session's table waits for its children (games.services, "gather"): nobody moves.
    text = S.gathering;
  }
  if (game.ended && view.game_over) text = `${text} ${S.session_over}`.trim();
  setText(banner, text);
  banner.hidden = !text;
  // After the game: the next game of the class session, the way back to the class (or to
  // another practice game). A stopped game, or an ended session, has no next one.
  $("play-after").hidden = !view.game_over && !stopped();
  const next = $("play-next-game");
  if (next) next.hidden = !view.game_over || game.ended;
  renderStandings(view);

  const turn = $("play-turn");
  const acting = stopped() ? null : view.acting;
  let turnText = "";
  if (!view.round_over && acting !== null) {
    const answering = view.turn === null;
    if (acting === SEAT) turnText = answering ? S.you_answer : S.your_turn;
    else turnText = answering ? fmt(S.answer_of, { name: playerName(acting) }) : fmt(S.turn_of, { name: playerName(acting) });
  }
  setText(turn, turnText);
  turn.classList.toggle("play-turn--mine", acting === SEAT && SEAT !== null);
}

function renderPile(view) {
  const top = $("play-top");
  // Redrawn only when it changed: a state that moves nothing on the pile moves nothing.
  if (top.dataset.shown !== String(view.top) || !top.firstChild) {
    top.replaceChildren();
    if (view.top) {
      const card = cardFace(view.top, document.createElement("div"), game.pictureKind);
      card.classList.add("card--big");
      card.setAttribute("role", "img");
      card.setAttribute("aria-label", fmt(S.top_card, { card: cardName(view.top) }));
      // From the hand below (this seat's play) or from the opponents' strip above.
      card.style.setProperty("--from-y", game.lastPlayedSeat === SEAT ? "8rem" : "-6rem");
      top.append(card);
      if (top.dataset.shown) animate(card, "card--fly");
    }
    top.dataset.shown = String(view.top);
  }

  // What may go on the pile, in words the server built from the engine's facts (to_play).
  const list = $("play-to-play");
  const parts = stopped() ? [] : game.toPlay || [];
  // Each redraw lays out the pile again: only when the words changed.
  const words = parts.join("\n");
  if (list.dataset.shown !== words || !list.firstChild) {
    list.dataset.shown = words;
    list.replaceChildren(
      ...(parts.length ? parts : ["–"]).map((text) => {
        const item = document.createElement("li");
        item.textContent = text;
        return item;
      }),
    );
  }
  setText($("play-direction"), view.direction === 1 ? S.clockwise : S.anticlockwise);
  setText($("play-pile-size"), countText(view.draw_pile_size));
  renderTimer();
}

export function renderTimer() {
  const deadline = game.table && game.table.deadline;
  $("play-timer-row").hidden = !deadline;
  if (!deadline) return;
  const left = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
  // Without a turn timer, a deadline is the wait for a player who has not come to the table.
  const settings = game.table.settings || {};
  const acting = game.view ? game.view.acting : null;
  const arrival = !settings.turn_timer && acting !== null && acting !== SEAT;
  setText($("play-timer"), arrival
    ? fmt(S.arrival, { name: playerName(acting), count: left })
    : fmt(S.seconds, { count: left }));
}

function renderPlayers(view) {
  const list = $("play-players");
  const players = (game.table && game.table.players) || [];
  const acting = stopped() ? null : view.acting;
  // A state that changes nothing of the seats leaves them as they are (no layout to redo).
  const key = JSON.stringify([players, acting, view.turn === null, view.hand_sizes, view.uno_window, view.scores, view.round]);
  if (key === list.dataset.key) return;
  list.dataset.key = key;
  list.replaceChildren();
  // Around the pile on a tablet and the whiteboard (play-table.css): with this seat at the
  // bottom, the next in the order of play on the left, then the top, then the right. Up to
  // three opponents; more, and a watching teacher, keep the strip above the pile.
  const opponents = view.players - 1;
  const around = SEAT !== null && opponents >= 1 && opponents <= 3;
  setData(root, "around", around ? "1" : "");
  const places = { 1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"] }[opponents];
  for (let seat = 0; seat < view.players; seat += 1) {
    const info = players.find((p) => p.seat === seat) || { name: `#${seat + 1}` };
    const item = document.createElement("li");
    item.className = "player";
    item.dataset.seat = String(seat);
    if (around) item.dataset.place = seat === SEAT ? "me" : places[(seat - SEAT + view.players) % view.players - 1];
    if (seat === acting) item.classList.add("player--acting");
    if (seat === SEAT) item.classList.add("player--me");
    const name = document.createElement("span");
    name.className = "player__name";
    name.textContent = seat === SEAT ? `${info.name} (${S.you})` : info.name;
    const count = document.createElement("span");
    count.className = "player__count";
    count.textContent = countText(view.hand_sizes[seat]);
    // The seat's hand as a card back (its count in text beside it): the testability contract.
    const back = document.createElement("span");
    back.className = "card-back";
    back.dataset.cardBack = "";
    back.dataset.count = String(view.hand_sizes[seat]);
    back.setAttribute("aria-hidden", "true");
    item.append(name, back, count);
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
  if (label !== undefined) setText(button, label);
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
  setText($("play-hint"), hint);
  $("play-hint").hidden = !hint;
  // A button that just disappeared had the focus: give it to the first visible action or card.
  if (document.activeElement && document.activeElement.hidden) focusSomewhere();
}

/** Put the focus on the first card of the hand (its heading when there is none). */
export function focusHand() {
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
  const refused = game.refused || {};
  // Issue 30 §1.5: on my turn, a card both rules could fit carries the two rules as buttons of
  // its own, so one tap plays it with the rule the child chose (the card's own tap still asks).
  const rulesOnCards = RULESET === "fractions" && view.turn === SEAT && !view.round_over && !stopped();
  const tried = `${Object.entries(refused).map(([c, r]) => `${c}:${r}`).join("|")}#${rulesOnCards}#${view.reference}`;
  const key = `${view.hand.join("|")}#${playable ? [...playable].join("|") : ""}#${view.drawn}#${tried}`;
  setText($("hand-count"), `(${countText(view.hand.length)})`);
  if (key === game.handKey) return;
  game.handKey = key;
  const list = $("play-hand");
  // The hand's cards are kept across states, keyed by card (and which copy of it): a state
  // changes their classes, names and rules in place, adds the new ones and drops the played
  // ones, so the rest of the hand is neither rebuilt nor laid out anew (bench/play_feel.py).
  const first = game.handItems === null;
  const items = first ? new Map() : game.handItems;
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  const focusIndex = focused ? Number(focused.dataset.index) : -1;
  if (first) list.replaceChildren(); // the server's placeholders
  const kept = new Map();
  const copies = {};
  const cards = view.hand.map((code) => {
    copies[code] = (copies[code] || 0) + 1;
    const id = `${code}#${copies[code]}`;
    let entry = items.get(id);
    if (!entry) {
      entry = newHandCard(code);
      // A card new to the hand (drawn, or given) comes in from the deck; not on the first show.
      if (!first) animate(entry.button, "card--arrived");
    }
    kept.set(id, entry);
    return entry;
  });
  // The played cards leave first, so that the others are already in their places.
  for (const [id, entry] of items) if (!kept.has(id)) entry.item.remove();
  cards.forEach((entry, index) => {
    updateHandCard(entry, view.hand[index], index, view, playable, refused, rulesOnCards);
    // In the hand's order, moving only what is out of place.
    const at = list.children[index];
    if (at !== entry.item) list.insertBefore(entry.item, at || null);
  });
  game.handItems = kept;
  const empty = list.querySelector(".hand__empty");
  if (!view.hand.length && !empty) {
    const line = document.createElement("li");
    line.className = "hand__empty";
    line.textContent = S.hand_empty;
    list.append(line);
  } else if (view.hand.length && empty) {
    empty.remove();
  }
  if (focused && !focused.isConnected && focusIndex >= 0) {
    const buttons = list.querySelectorAll("button[data-index]");
    const next = buttons[Math.min(focusIndex, buttons.length - 1)];
    if (next) next.focus();
    else focusSomewhere();
  } else if (focused && document.activeElement !== focused) {
    focused.focus(); // moved within the hand: it keeps the focus
  }
}

/** Build a card of the hand: its face and its button (what changes is set by updateHandCard). */
function newHandCard(code) {
  const item = document.createElement("li");
  const button = cardFace(code, document.createElement("button"), game.pictureKind);
  button.type = "button";
  button.addEventListener("click", () => playCard(code, button));
  item.append(button);
  return { item, button, flags: "", rules: "" };
}

/** Set what a state says of a hand's card: playable, tried, drawn, its name and its rules. */
function updateHandCard(entry, code, index, view, playable, refused, rulesOnCards) {
  const { item, button } = entry;
  button.dataset.index = String(index);
  button.disabled = false;
  const canPlay = Boolean(playable && playable.has(code));
  const tried = Object.hasOwn(refused, code);
  let label = cardName(code);
  if (canPlay) label += `, ${S.playable}`;
  // Refused this turn (the server's `refused`): the same try again would be refused.
  if (tried) label += `, ${S.tried}`;
  if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
  const flags = `${canPlay}#${tried}`;
  if (flags !== entry.flags) {
    entry.flags = flags;
    button.classList.toggle("card--playable", canPlay);
    button.classList.toggle("card--tried", tried);
    for (const flag of button.querySelectorAll(".card__playable, .card__tried")) flag.remove();
    if (canPlay) button.append(handFlag("card__playable", `✓ ${S.playable}`));
    if (tried) button.append(handFlag("card__tried", S.tried));
  }
  button.classList.toggle("card--drawn", view.drawn === code);
  const rules = rulesOnCards && bothRulesLookPossible(parseCard(code), view) ? openRules(code).join(",") : "";
  if (rules !== entry.rules || (rules && !item.querySelector(".card-rules"))) {
    entry.rules = rules;
    const box = item.querySelector(".card-rules");
    if (box) box.remove();
    item.classList.toggle("hand__card--rules", Boolean(rules));
    if (rules) item.append(ruleButtons(code, cardName(code), button));
  }
}

function handFlag(className, text) {
  const flag = document.createElement("span");
  flag.className = className;
  flag.setAttribute("aria-hidden", "true");
  flag.textContent = text;
  return flag;
}

/** Build the two rule buttons of a card ("equal" / "same denominator"): one tap plays it. */
function ruleButtons(code, label, card) {
  const box = document.createElement("span");
  box.className = "card-rules";
  for (const rule of openRules(code)) {
    // A span with the button role: the hand's <button>s stay its cards, one per card.
    const button = document.createElement("span");
    button.setAttribute("role", "button");
    button.className = `card-rules__rule card-rules__rule--${rule}`;
    button.dataset.cardRule = rule;
    button.dataset.for = code;
    button.textContent = S[`rule_${rule}_short`];
    // Keyboards and screen readers play the card itself (it asks): one tab stop a card.
    button.tabIndex = -1;
    button.setAttribute("aria-label", fmt(S.play_with_rule, { card: label, rule: S[`rule_${rule}`] }));
    button.addEventListener("click", () => playCard(code, card, rule));
    box.append(button);
  }
  return box;
}

/** Show the standings at the game's end: built last to first, at once without motion. */
function renderStandings(view) {
  const list = $("play-standings");
  const own = $("play-own");
  if (!list) return;
  const over = Boolean(view.game_over);
  list.hidden = !over;
  if (own) own.hidden = !over || SEAT === null || RULESET !== "fractions";
  const how = $("play-points-how");
  if (!over) {
    if (how) how.hidden = true;
    list.replaceChildren();
    list.dataset.shown = "";
    return;
  }
  if (list.dataset.shown === String(game.stateId)) return;
  list.dataset.shown = String(game.stateId);
  const winners = Array.isArray(view.winner) ? view.winner : [view.winner];
  const seats = [...Array(view.players).keys()];
  const scored = Array.isArray(view.scores) && view.scores.some((score) => score);
  // The winner first, then the most points (several rounds) or the fewest cards left.
  seats.sort((a, b) => {
    const win = Number(winners.includes(b)) - Number(winners.includes(a));
    if (win) return win;
    // Equal points (one round: every loser has 0) fall back to the fewest cards left.
    const points = scored ? (view.scores[b] || 0) - (view.scores[a] || 0) : 0;
    return points || view.hand_sizes[a] - view.hand_sizes[b];
  });
  const motion = motionOn();
  list.replaceChildren(
    ...seats.map((seat, rank) => {
      const line = document.createElement("li");
      line.className = "standings__line";
      line.dataset.seat = String(seat);
      if (seat === SEAT) line.classList.add("standings__line--me");
      // Last to first: the last line comes first, the winner's last.
      if (motion) line.style.setProperty("--step", String(seats.length - 1 - rank));
      const name = document.createElement("span");
      name.textContent = fmt(S.standing, { rank: rank + 1, name: playerName(seat) });
      const detail = document.createElement("span");
      const cardsLeft = countText(view.hand_sizes[seat]);
      if (!scored) detail.textContent = cardsLeft;
      else {
        const points = plural(view.scores[seat], S.points_one, S.points, { score: view.scores[seat] });
        // A loser's line also says what they held: the cards the winner counted.
        detail.textContent = winners.includes(seat) ? points : `${points} · ${cardsLeft}`;
      }
      line.append(name, detail);
      return line;
    }),
  );
  if (how) how.hidden = !scored;
  if (own && SEAT !== null) {
    const count = game.foundEqual || 0;
    own.textContent = plural(count, S.you_found_one, S.you_found, { count });
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
