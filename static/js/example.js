// The worked example (docs/protocol.md, "example"): after a wrong fraction play at a practice
// table the refusal frame carries both fractions, the words and, if the student holds one, a
// card of their own hand equal to the card on the pile. The page draws both fractions on one
// number line, to scale. Never modal: play goes on; OK, Escape or the next turn closes it. When
// the reason prompt (reason.js) asks after the same refusal, it comes first, the example after
// (then without taking the focus from the hand).

import { closeCompare, openCompare } from "./compare.js";
import { axis as drawAxis, svgNode } from "./number_line.js";

const $ = (id) => document.getElementById(id);
const FRACTION = /\d+\/\d+/g;
const fmt = (text, values) =>
  text.replace(/%\((\w+)\)[sd]/g, (whole, key) => (key in values ? String(values[key]) : whole));

let helpers = null; // { announce, cardFace } from play.js
let pending = null; // an example waiting for the reason prompt to close
let shownAt = null; // the state number it was shown on (null until its state arrives)
let focusBefore = null;

function panel() {
  return $("play-example");
}

function isOpen() {
  const element = panel();
  return Boolean(element && !element.hidden);
}

function reasonOpen() {
  const reason = $("play-reason");
  return Boolean(reason && !reason.hidden);
}

/** Put text in an element, each fraction in a span that never breaks across lines. */
function withFractions(element, text) {
  element.replaceChildren();
  let last = 0;
  for (const match of text.matchAll(FRACTION)) {
    element.append(text.slice(last, match.index));
    const span = document.createElement("span");
    span.className = "example__frac";
    span.textContent = match[0];
    element.append(span);
    last = match.index + match[0].length;
  }
  element.append(text.slice(last));
  return element;
}

/** Draw both fractions on one number line from 0 to 1 (or more), each with its own ticks. */
function numberLine(first, second, labelOf) {
  const values = [first.num / first.den, second.num / second.den];
  const top = Math.max(1, Math.ceil(Math.max(...values) - 1e-9));
  const label = labelOf(top);
  const width = 420;
  const left = 20;
  const axis = 52;
  const svg = svgNode("svg", {
    viewBox: `0 0 ${width} 104`,
    class: "example__line",
    role: "img",
    "aria-label": label,
    focusable: "false",
  });
  svg.append(svgNode("title", {}, label));
  const x = drawAxis(svg, { width, left, y: axis, top, className: "example__axis", labelClass: "example__tick" });
  [
    [first, values[0], "a"],
    [second, values[1], "b"],
  ].forEach(([fraction, value, mark]) => {
    // Ticks of this fraction's denominator, so the pieces can be counted.
    for (let piece = 1; piece < fraction.den * top; piece += 1) {
      const tx = x(piece / fraction.den);
      const [y1, y2] = mark === "a" ? [axis - 6, axis] : [axis, axis + 6];
      svg.append(svgNode("line", { x1: tx, y1, x2: tx, y2, class: `example__mark-${mark}` }));
    }
    const px = Number(x(value));
    // Shape and place tell them apart, never the colour alone: a triangle above, a square below.
    svg.append(
      mark === "a"
        ? svgNode("path", { d: `M${px - 7},${axis - 20} L${px + 7},${axis - 20} L${px},${axis - 9} Z`, class: "example__mark-a" })
        : svgNode("rect", { x: px - 6, y: axis + 9, width: 12, height: 12, class: "example__mark-b" }),
    );
    const ty = mark === "a" ? axis - 26 : axis + 40;
    svg.append(svgNode("text", { x: px, y: ty, "text-anchor": "middle", class: "example__label" }, fraction.text));
  });
  return svg;
}

function validFraction(f) {
  return f && Number.isInteger(f.num) && Number.isInteger(f.den) && f.num > 0 && f.den > 0 && typeof f.text === "string";
}

function open(example, takeFocus = true) {
  const element = panel();
  if (!element || !validFraction(example.reference) || !validFraction(example.played)) return;
  const { reference, played } = example;
  const labelOf = (top) =>
    fmt(element.dataset.label || "", { top, first: reference.text, second: played.text });
  $("play-example-figure").replaceChildren(numberLine(reference, played, labelOf));
  const legend = $("play-example-legend");
  legend.replaceChildren(
    withFractions(document.createElement("li"), fmt(element.dataset.pileText || "", { f: reference.text })),
    withFractions(document.createElement("li"), fmt(element.dataset.played || "", { f: played.text })),
  );
  legend.setAttribute("aria-hidden", "true"); // the figure's text alternative says the same
  const words = $("play-example-words");
  words.replaceChildren(withFractions(document.createElement("p"), String(example.sentence || "")));
  const spoken = [String(example.sentence || "")];
  const own = example.own_card;
  if (own && typeof own.card === "string" && typeof own.sentence === "string") {
    const line = withFractions(document.createElement("p"), own.sentence);
    line.className = "example__own";
    if (helpers && helpers.cardFace) {
      const card = helpers.cardFace(own.card, document.createElement("span"));
      card.classList.add("example__card");
      card.setAttribute("aria-hidden", "true"); // the sentence names it
      line.prepend(card);
    }
    words.append(line);
    spoken.push(own.sentence);
  }
  const compare = openCompare(example.compare, helpers); // a refused trap: one question
  if (compare) spoken.push(compare.spoken);
  if (!isOpen()) focusBefore = document.activeElement;
  shownAt = null;
  element.hidden = false;
  if (helpers && helpers.announce) helpers.announce(spoken.join(" "));
  if (takeFocus) ((compare && compare.focus) || $("play-example-ok")).focus();
}

/** Show an example outside a game (the warm-up's end): open, not taking the focus. */
export function showExample(example, tools = null) {
  helpers = tools;
  open(example, false);
}

/** Close the example; give the focus back where it was if it was inside it. */
export function closeExample() {
  pending = null;
  if (!isOpen()) return;
  const element = panel();
  const hadFocus = element.contains(document.activeElement);
  element.hidden = true;
  closeCompare();
  shownAt = null;
  const back = focusBefore && focusBefore.isConnected ? focusBefore : $("hand-title");
  focusBefore = null;
  if (hadFocus && back) back.focus();
}

function showWhenFree(example) {
  if (reasonOpen()) pending = example; // one panel at a time: the reason prompt first
  else open(example);
}

/** Read a frame after reason.js: show a refusal's example, close it once the turn moves on. */
export function handleExampleFrame(frame, tools) {
  helpers = tools;
  if (frame.type === "error" && frame.example && typeof frame.example === "object") {
    showWhenFree(frame.example);
  } else if (frame.type === "state" && typeof frame.state_id === "number" && (isOpen() || pending)) {
    if (shownAt === null) shownAt = frame.state_id;
    else if (frame.state_id > shownAt) closeExample(); // the turn moved on
  }
}

const reasonPanel = $("play-reason");
if (reasonPanel) {
  new MutationObserver(() => {
    if (pending && !reasonOpen()) {
      const example = pending;
      pending = null;
      // The student just closed the prompt and is back in the hand: leave the focus there
      // (a second jump would pull them away again); the live region says the words.
      open(example, false);
    }
  }).observe(reasonPanel, { attributes: true, attributeFilter: ["hidden"] });
}

document.addEventListener(
  "keydown",
  (event) => {
    if (!isOpen() || event.defaultPrevented || event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    closeExample();
  },
  true,
);

const ok = $("play-example-ok");
if (ok) ok.addEventListener("click", closeExample);
