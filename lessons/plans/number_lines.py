"""Draw a pair of fractions to scale as inline SVG: two strips and one number line.

Pure Python (no Django), so the page and the A4 sheet draw the same picture with no external
resource. Every tick and point sits at origin + value / span × length (rounded to 0.01 px):
the SVG carries `data-origin`, `data-length` and `data-span`, and each tick its `data-value`,
so a test can check the scale from the markup alone.
"""

from __future__ import annotations

import math
from fractions import Fraction
from html import escape
from typing import Final

WIDTH: Final = 520
ORIGIN: Final = 40.0  # x of 0 on the strips and the line
LENGTH: Final = 420.0  # px from 0 to the end of the span
STRIP_HEIGHT: Final = 18
HEIGHT: Final = 150
# More parts than this on a strip and its partition lines would touch: the strip is drawn
# shaded without them (the line's ticks still mark every part).
MAX_PARTS: Final = 48


def parse(value: str) -> Fraction:
    """Return the fraction "a/b" as a Fraction (ValueError for anything else)."""
    top, _slash, bottom = value.partition("/")
    numerator, denominator = int(top), int(bottom)
    if denominator <= 0 or numerator < 0:
        raise ValueError(f"not a fraction card: {value!r}")
    return Fraction(numerator, denominator)


def _x(value: Fraction, span: int) -> float:
    return round(ORIGIN + float(value) / span * LENGTH, 2)


FILLS: Final = {"shade--first": "#9cc3ec", "shade--second": "#f2b8b5"}


def _strip(y: int, numerator: int, denominator: int, span: int, label: str, css: str) -> str:
    """Return one strip of `span` units cut in `denominator`ths, the first `numerator` shaded."""
    unit = LENGTH / span
    part = unit / denominator
    out = [
        f'<rect x="{ORIGIN}" y="{y}" width="{LENGTH}" height="{STRIP_HEIGHT}" '
        'fill="#fff" stroke="#333" stroke-width="1"/>'
    ]
    if numerator:
        width = round(min(numerator * part, LENGTH), 2)
        out.append(
            f'<rect class="shade {css}" x="{ORIGIN}" y="{y}" width="{width}" '
            f'height="{STRIP_HEIGHT}" fill="{FILLS[css]}" data-value="{numerator}/{denominator}"/>'
        )
    if denominator * span <= MAX_PARTS:
        for k in range(1, denominator * span):
            x = _x(Fraction(k, denominator), span)
            out.append(
                f'<line class="part" x1="{x}" x2="{x}" y1="{y}" y2="{y + STRIP_HEIGHT}" '
                f'data-value="{k}/{denominator}" stroke="#333" stroke-width="0.6"/>'
            )
    out.append(
        f'<text x="{ORIGIN + LENGTH + 8}" y="{y + 13}" font-size="12">{escape(label)}</text>'
    )
    return "".join(out)


def _ticks(y: int, denominator: int, span: int, up: bool) -> str:
    """Return the line's ticks for `denominator`ths, above (`up`) or below the line."""
    end = y - 7 if up else y + 7
    out = []
    for k in range(denominator * span + 1):
        x = _x(Fraction(k, denominator), span)
        out.append(
            f'<line class="tick" x1="{x}" x2="{x}" y1="{y}" y2="{end}" '
            f'data-value="{k}/{denominator}" stroke="#333" stroke-width="0.8"/>'
        )
    return "".join(out)


def pair_svg(reference: str, played: str, *, label: str, css: str = "") -> str:
    """Return an SVG of `reference` and `played` ("a/b") drawn to scale, described by `label`.

    Two strips (the first fraction's, then the second's) over one number line from 0 to the
    whole number above both, marked in the first fraction's parts above and the second's
    below, with both points. ValueError for values that are not fraction cards.
    """
    first, second = parse(reference), parse(played)
    a, b = (int(n) for n in reference.split("/"))
    c, d = (int(n) for n in played.split("/"))
    span = max(1, math.ceil(max(first, second)))
    line_y = 105
    x1, x2 = _x(first, span), _x(second, span)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="pair-picture {escape(css)}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" data-origin="{ORIGIN}" data-length="{LENGTH}" '
        f'data-span="{span}">',
        f"<title>{escape(label)}</title>",
        _strip(8, a, b, span, reference, "shade--first"),
        _strip(34, c, d, span, played, "shade--second"),
        f'<line class="axis" x1="{ORIGIN}" x2="{ORIGIN + LENGTH}" y1="{line_y}" '
        f'y2="{line_y}" stroke="#333" stroke-width="1.2"/>',
        _ticks(line_y, b, span, up=True),
        _ticks(line_y, d, span, up=False),
    ]
    for whole in range(span + 1):
        x = _x(Fraction(whole), span)
        parts.append(
            f'<text class="whole" x="{x}" y="{line_y + 38}" font-size="11" '
            f'text-anchor="middle" data-value="{whole}">{whole}</text>'
        )
    parts += [
        f'<circle class="point point--first" cx="{x1}" cy="{line_y}" r="4" '
        f'data-value="{a}/{b}" fill="#1f5fa8"/>',
        f'<text x="{x1}" y="{line_y - 12}" font-size="12" text-anchor="middle" '
        f'fill="#1f5fa8">{escape(reference)}</text>',
        f'<circle class="point point--second" cx="{x2}" cy="{line_y}" r="4" '
        f'data-value="{c}/{d}" fill="#b3261e"/>',
        f'<text x="{x2}" y="{line_y + 22}" font-size="12" text-anchor="middle" '
        f'fill="#b3261e">{escape(played)}</text>',
        "</svg>",
    ]
    return "".join(parts)
