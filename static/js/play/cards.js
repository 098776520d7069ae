// A card's code (the UNO Braille marking) read into its kind, its words and its face.

import { axis, svgNode } from "../number_line.js";
import { ACCESSIBLE, CARD_NAMES, S, fmt } from "./page.js";

export const COLOURS = ["r", "j", "v", "b"];
export const SHAPES = { r: "▲", j: "●", v: "■", b: "◆" };
const FQ_NAMES = ["hugo", "manon", "marco", "cathy"];

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
export function cardName(code) {
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

const PICTURE_WIDTH = 60;

/** Draw a fraction under its value: the unit bar cut into `den` parts with `num` shaded (one
 * bar a whole), or the number line from 0 to 1 (2 above one) with the point at num/den.
 * Decorative: the card's name says its value (the face is aria-hidden). */
function fractionPicture(card, kind) {
  const wholes = Math.max(1, Math.ceil(card.num / card.den - 1e-9));
  const svg = svgNode("svg", { class: `card__picture card__picture--${kind}`, "aria-hidden": "true", focusable: "false" });
  if (kind === "bar") {
    const gap = 2;
    const part = (PICTURE_WIDTH - gap * (wholes - 1)) / wholes / card.den;
    svg.setAttribute("viewBox", `0 0 ${PICTURE_WIDTH} 12`);
    for (let piece = 0; piece < card.den * wholes; piece += 1) {
      const whole = Math.floor(piece / card.den);
      const x = whole * gap + piece * part;
      const shaded = piece < card.num ? " card__part--on" : "";
      svg.append(svgNode("rect", { x: x.toFixed(2), y: 1, width: part.toFixed(2), height: 10, class: `card__part${shaded}` }));
    }
    return svg;
  }
  // The worked example's number line (number_line.js), small and without labels.
  svg.setAttribute("viewBox", `0 0 ${PICTURE_WIDTH} 14`);
  const x = axis(svg, { width: PICTURE_WIDTH, left: 4, y: 8, top: wholes, tick: 5, className: "card__axis", bare: true });
  for (let piece = 1; piece < card.den * wholes; piece += 1) {
    if (piece % card.den) svg.append(svgNode("line", { x1: x(piece / card.den), y1: 6, x2: x(piece / card.den), y2: 10, class: "card__axis card__axis--part" }));
  }
  svg.append(svgNode("circle", { cx: x(card.num / card.den), cy: 8, r: 3, class: "card__point" }));
  return svg;
}

/** Build the face of a card: value, marking, colour letter and shape (never colour alone).
 * `picture` ("bar", "line"): a fraction's picture under its value (a practice table's). */
export function cardFace(code, element, picture = "") {
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
  if (picture && card.kind === "frac" && card.den > 0) face.append(fractionPicture(card, picture));
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
