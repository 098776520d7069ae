// The questions a card may need before it is played (a rule, a denominator, a colour, a
// player), asked with buttons, and the play itself sent as an action.

import { $, DENOMINATORS, RULESET, S, SEAT } from "./page.js";
import { game, playerName } from "./state.js";
import { COLOURS, SHAPES, parseCard } from "./cards.js";
import { act } from "./link.js";

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

export function closeChooser() {
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

/** Tell whether both fraction rules could apply to a card by its looks (so the child says). */
export function bothRulesLookPossible(card, view) {
  if (card.kind !== "frac" || !view || !view.reference) return false;
  return card.den === Number(view.reference.split("/")[1]);
}

/** Return the rules still open to a card this turn: the server's `refused` rules them out. */
export function openRules(code) {
  const out = (game.refused && game.refused[code]) || [];
  return ["equal", "denominator"].filter((rule) => !out.includes(rule));
}

/** Say which fraction rule a play uses: asked only when both could apply by their looks. */
async function fractionClaim(code, card, view) {
  if (view.reference) {
    if (!bothRulesLookPossible(card, view)) return "equal";
    // Remembered: once a rule was refused for this card this turn, only the other one is
    // left, and asking again would only offer a choice the server refuses (already_refused).
    const open = openRules(code);
    if (open.length === 1) return open[0];
    return choose(S.choose_rule, [
      { label: S.rule_equal, value: "equal" },
      { label: S.rule_denominator, value: "denominator" },
    ]);
  }
  return view.denominator ? "denominator" : null;
}

/** Play a card, with the rule the child tapped on the card itself (`claim`), if any. */
export async function playCard(code, button, claim) {
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
        const rule = claim || (await fractionClaim(code, card, view));
        if (rule) action.claim = rule;
      } else if (
        (card.kind === "+2" || card.kind === "wild" || card.kind === "+4") &&
        !(game.denominatorCards && !game.denominatorCards.has(code))
      ) {
        // Only for a card the server says may be played now (`denominator_cards`): a +2 that
        // cannot go on the pile is sent as it is, and refused at once, without a question.
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
  // A move held while the link is away: its card shows it waits (the page says why).
  if (act(action, stateId) && button.isConnected) button.dataset.pending = "1";
}

export function onAction(kind) {
  const view = game.view;
  if (!view) return;
  if (kind === "catch") act({ type: "catch", target: view.uno_window });
  else act({ type: kind });
}
