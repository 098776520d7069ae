// The number line the pages draw (inline SVG, nothing downloaded): the worked example's two
// fractions (example.js) and a practice card's picture (play/cards.js) share its axis.

const SVG = "http://www.w3.org/2000/svg";

/** Make an SVG element with its attributes (and its text). */
export function svgNode(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Return where a value sits on a line from 0 to `top` drawn from `left` to `width - left`. */
export function scale(width, left, top) {
  const span = width - 2 * left;
  return (value) => (left + (value / top) * span).toFixed(1);
}

/** Draw the axis from 0 to `top` with a tick at each whole number (its label unless `bare`). */
export function axis(svg, { width, left, y, top, tick = 8, className, labelClass, bare = false }) {
  const x = scale(width, left, top);
  svg.append(svgNode("line", { x1: left, y1: y, x2: width - left, y2: y, class: className }));
  for (let whole = 0; whole <= top; whole += 1) {
    const wx = x(whole);
    svg.append(svgNode("line", { x1: wx, y1: y - tick, x2: wx, y2: y + tick, class: className }));
    if (!bare) svg.append(svgNode("text", { x: wx, y: y + 24, "text-anchor": "middle", class: labelClass }, whole));
  }
  return x;
}
