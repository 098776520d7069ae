// The reason prompt (docs/protocol.md, "reason"): after a refused "equal" claim the server may
// ask "Why did you think they were equal?". One click or one key (1-4) answers, never more;
// Escape or "Skip" closes it without an answer. The server chose whether to ask and the order
// of the answers: the page shows them as they come. An answer the fallback link could not
// deliver (live-stream.js: every resend cut) opens the same prompt again, saying so.

const $ = (id) => document.getElementById(id);
// The refusals of an answer (the prompt closes; play.js shows the message like any error).
const REASON_ERRORS = new Set(["unknown_reason", "no_reason_asked", "already_answered", "not_a_student"]);

let sendFrame = null;
let say = null;
let askedAt = null; // the state number the prompt was asked on (null until its state arrives)
let focusBefore = null;
let latestState = -1; // the latest state number seen
// The prompt last answered, until the server answers: its choices and state, to ask again.
let answered = null;

function panel() {
  return $("play-reason");
}

function isOpen() {
  const element = panel();
  return Boolean(element && !element.hidden);
}

/** Close the prompt; give the focus back where it was (else to the hand's title). */
export function closeReason() {
  if (!isOpen()) return;
  panel().hidden = true;
  $("play-reason-choices").replaceChildren();
  showLost(false);
  askedAt = null;
  const back = focusBefore && focusBefore.isConnected ? focusBefore : $("hand-title");
  focusBefore = null;
  if (back) back.focus();
}

function showLost(shown) {
  const element = $("play-reason-lost");
  if (element) element.hidden = !shown;
}

function answer(code) {
  if (!isOpen() || !sendFrame) return;
  const choices = [...$("play-reason-choices").children].map((button) => ({
    code: button.dataset.code,
    label: button.dataset.label,
  }));
  const stateId = askedAt === null ? latestState : askedAt;
  if (sendFrame({ type: "reason", code })) {
    closeReason();
    answered = { choices, stateId };
  }
}

/** Show the prompt with `choices`; `stateId` when its state is known, `lost` after a loss. */
function open(choices, { stateId = null, lost = false } = {}) {
  const element = panel();
  if (!element || !choices.length) return;
  const box = $("play-reason-choices");
  box.replaceChildren();
  choices.slice(0, 9).forEach((choice, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button reason__choice";
    button.dataset.code = choice.code;
    button.dataset.label = choice.label;
    button.setAttribute("aria-keyshortcuts", String(index + 1));
    const key = document.createElement("kbd");
    key.textContent = String(index + 1);
    key.setAttribute("aria-hidden", "true");
    button.append(key, ` ${choice.label}`);
    button.addEventListener("click", () => answer(choice.code));
    box.append(button);
  });
  if (!isOpen()) focusBefore = document.activeElement;
  askedAt = stateId;
  answered = null;
  showLost(lost);
  element.hidden = false;
  if (say && lost) say($("play-reason-lost").textContent.trim());
  if (say) say($("play-reason-question").textContent.trim());
  box.firstElementChild.focus();
}

/**
 * Ask again after the last answer was lost on the way (live-stream.js's onLost: every try cut):
 * the same choices, saying the answer did not arrive, while the question still stands, that is
 * while no later state has come (the server refuses an answer once the student played on; the
 * prompt's own rule). Return true when the prompt is open, false when nothing was asked again.
 */
export function reasonLost() {
  const lost = answered;
  answered = null;
  if (isOpen()) return true; // a newer question is already there
  if (!lost || !lost.choices.length || latestState > lost.stateId) return false;
  open(lost.choices, { stateId: lost.stateId, lost: true });
  return isOpen();
}

/**
 * Read a frame before play.js does: open the prompt on a refusal that asks, close it when the
 * answer is saved or refused, or when the game moves on. Return true when the frame is done.
 */
export function handleReasonFrame(frame, send, announce) {
  sendFrame = send;
  say = announce;
  if (frame.type === "state" && typeof frame.state_id === "number") {
    latestState = Math.max(latestState, frame.state_id);
    if (answered && frame.state_id > answered.stateId) answered = null; // moved on
  }
  if (frame.type === "error" && frame.ask_reason && Array.isArray(frame.ask_reason.choices)) {
    open(frame.ask_reason.choices);
    return false; // play.js still shows the refusal and its explanation
  }
  if (frame.type === "reason_saved") {
    answered = null;
    const saved = panel() && panel().dataset.saved;
    if (saved && say) say(saved);
    return true;
  }
  if (frame.type === "error" && REASON_ERRORS.has(frame.code)) {
    answered = null;
    closeReason();
    return false;
  }
  if (frame.type === "state" && isOpen() && typeof frame.state_id === "number") {
    if (askedAt === null) askedAt = frame.state_id;
    else if (frame.state_id > askedAt) closeReason(); // the turn moved on: nothing to answer
  }
  return false;
}

document.addEventListener(
  "keydown",
  (event) => {
    if (!isOpen() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      closeReason();
      return;
    }
    const buttons = [...$("play-reason-choices").children];
    const index = Number(event.key) - 1;
    if (/^[1-9]$/.test(event.key) && index < buttons.length) {
      event.preventDefault();
      event.stopPropagation();
      answer(buttons[index].dataset.code);
    }
  },
  true,
);

const skip = $("play-reason-skip");
if (skip) skip.addEventListener("click", closeReason);
