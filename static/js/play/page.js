// The play page's fixed facts: the elements, the table's settings and the words the template
// wrote (#play-strings), read once when the page loads.

export const root = document.getElementById("play");
export const TABLE = Number(root.dataset.table);
export const SEAT = root.dataset.seat === "" ? null : Number(root.dataset.seat);
export const RULESET = root.dataset.ruleset;
export const IN_SESSION = root.dataset.session === "1"; // a table of a class session
export const ACCESSIBLE = root.dataset.accessible === "1"; // the UNO Braille markings on every card
// The denominators a wild card may name: the engine's own list, sent by the page.
export const DENOMINATORS = JSON.parse(document.getElementById("play-denominators").textContent);

export const S = Object.fromEntries(
  [...document.querySelectorAll("#play-strings [data-s]")].map((el) => [
    el.dataset.s,
    el.textContent.trim(),
  ]),
);
const namesElement = document.getElementById("card-names");
export const CARD_NAMES = namesElement ? JSON.parse(namesElement.textContent) : {};

export const $ = (id) => document.getElementById(id);

/** Write an element's text only when it changed: the same words written again still make the
 *  browser lay the page out again (docs/performance.md). */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}
/** Set a data-* attribute only when its value changes: a write on the table's root makes the
 * browser check every rule that reads it, even for the same value (bench/play_feel.py). */
export function setData(element, key, value) {
  if (element.dataset[key] !== value) element.dataset[key] = value;
}
export const fmt = (text, values) =>
  text.replace(/%\((\w+)\)[sd]/g, (whole, key) => (key in values ? String(values[key]) : whole));

/** Pick the singular or plural text for a count, by the page language's plural rule. */
export function plural(count, singular, other, values) {
  const one = root.dataset.lang === "fr" ? count <= 1 : count === 1;
  return fmt(one ? singular : other, values);
}

export function countText(count) {
  return plural(count, S.cards_one, S.cards_other, { count });
}
