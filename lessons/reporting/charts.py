"""Small inline SVG charts for dashboards and reports (no JavaScript, print-friendly).

Every chart carries a text alternative (role="img" and a <title>) and never relies on colour
alone: right and wrong claims differ by position and shape as well, and values are printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.engine.fractions import FractionValue

# Presentation attributes next to each class: WeasyPrint (PDF) does not style inline SVG from
# the page's stylesheet, and the page's CSS still wins in browsers.
PAINT: dict[str, str] = {
    "axis": 'stroke="#1f2328" stroke-width="1.5"',
    "grid": 'stroke="#c9ced6" stroke-width="1" stroke-dasharray="3 3"',
    "bar": 'fill="#1d4ed8"',
    "track": 'fill="#e5e7eb"',
    "line": 'fill="none" stroke="#1d4ed8" stroke-width="2"',
    "dot": 'fill="#1d4ed8"',
    "ok": 'fill="#15803d"',
    "bad": 'fill="#b91c1c"',
    "mark-a": 'fill="#1d4ed8" stroke="#1d4ed8" stroke-width="1.5"',
    "mark-b": 'fill="#c2410c" stroke="#c2410c" stroke-width="1.5"',
    "tick": 'fill="#4a5360" font-size="11"',
    "tick muted": 'fill="#4a5360" font-size="11"',
    "value": 'fill="#1f2328" font-size="11" font-weight="700"',
    "frac": 'fill="#1f2328" font-size="14" font-weight="700"',
}


def _paint(body: str) -> str:
    """Add each class's presentation attributes to the SVG elements of `body`."""
    for css, attributes in PAINT.items():
        body = body.replace(f'class="{css}"', f'class="{css}" {attributes}')
    return body


def _svg(width: int, height: int, label: str, body: str, css: str = "chart") -> SafeString:
    return mark_safe(  # noqa: S308 - every text part below is escaped
        f'<svg class="{css}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f'<title>{escape(label)}</title><g font-family="sans-serif">{_paint(body)}</g></svg>'
    )


def percent(value: float | None) -> str:
    """Format a share as a whole percentage, or an em dash."""
    return "—" if value is None else f"{round(value * 100)} %"


def claims_strip(results: Sequence[bool], label: str) -> SafeString:
    """Draw one mark per claim, oldest left: a tall bar up for right, a short bar down for wrong."""
    step, height, mid = 9, 34, 20
    width = max(step * len(results), step)
    parts = [f'<line x1="0" y1="{mid}" x2="{width}" y2="{mid}" class="axis"/>']
    for index, right in enumerate(results):
        x = index * step + 1
        if right:
            parts.append(f'<rect x="{x}" y="2" width="{step - 3}" height="{mid - 3}" class="ok"/>')
        else:
            parts.append(
                f'<rect x="{x}" y="{mid + 2}" width="{step - 3}" height="{height - mid - 4}" '
                'class="bad"/>'
            )
    return _svg(width, height, label, "".join(parts), "chart chart--strip")


def trend_line(values: Sequence[float | None], label: str, *, width: int = 96) -> SafeString:
    """Draw a small accuracy line (0–100 %) across sessions; gaps where a student was absent."""
    height, pad = 28, 3
    if not values:
        return _svg(width, height, label, "", "chart chart--spark")
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    parts = [
        f'<line x1="{pad}" y1="{height / 2}" x2="{width - pad}" y2="{height / 2}" class="grid"/>'
    ]
    points: list[str] = []
    for index, value in enumerate(values):
        if value is None:
            if len(points) > 1:
                parts.append(f'<polyline points="{" ".join(points)}" class="line"/>')
            points = []
            continue
        x = pad + index * step
        y = height - pad - value * (height - 2 * pad)
        points.append(f"{x:.1f},{y:.1f}")
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.2" class="dot"/>')
    if len(points) > 1:
        parts.append(f'<polyline points="{" ".join(points)}" class="line"/>')
    return _svg(width, height, label, "".join(parts), "chart chart--spark")


def session_chart(points: Sequence[tuple[str, float | None, int]], label: str) -> SafeString:
    """Draw the class accuracy per session as labelled columns (date, % and claims under each)."""
    col, gap, top, plot = 64, 14, 22, 120
    width = max(len(points), 1) * (col + gap) + 40
    height = top + plot + 44
    parts = []
    for pct in (0, 50, 100):
        y = top + plot - pct / 100 * plot
        parts.append(f'<line x1="34" y1="{y}" x2="{width}" y2="{y}" class="grid"/>')
        parts.append(f'<text x="30" y="{y + 4}" class="tick" text-anchor="end">{pct}</text>')
    for index, (day, value, claims) in enumerate(points):
        x = 40 + index * (col + gap)
        if value is not None:
            h = max(value * plot, 1)
            parts.append(
                f'<rect x="{x}" y="{top + plot - h:.1f}" width="{col}" height="{h:.1f}" '
                'class="bar"/>'
            )
            parts.append(
                f'<text x="{x + col / 2}" y="{top + plot - h - 5:.1f}" class="value" '
                f'text-anchor="middle">{escape(percent(value))}</text>'
            )
        parts.append(
            f'<text x="{x + col / 2}" y="{top + plot + 16}" class="tick" '
            f'text-anchor="middle">{escape(day)}</text>'
        )
        parts.append(
            f'<text x="{x + col / 2}" y="{top + plot + 32}" class="tick muted" '
            f'text-anchor="middle">n={claims}</text>'
        )
    return _svg(width, height, label, "".join(parts), "chart chart--sessions")


def accuracy_bar(value: float | None, label: str, *, scale: float = 1.0) -> SafeString:
    """Draw a horizontal bar for a share (full at `scale`), with the percentage beside it."""
    width, height = 132, 14
    filled = 0 if value is None else round(min(value / scale, 1.0) * 80)
    body = (
        f'<rect x="0" y="2" width="80" height="10" class="track"/>'
        f'<rect x="0" y="2" width="{filled}" height="10" class="bar"/>'
        f'<text x="86" y="12" class="value">{escape(percent(value))}</text>'
    )
    return _svg(width, height, label, body, "chart chart--bar")


def number_line(first: FractionValue, second: FractionValue, label: str) -> SafeString:
    """Place two fractions on one number line from 0 to 1 (or 2), each with its own ticks."""
    values = [Fraction(*first), Fraction(*second)]
    top = 2 if max(values) > 1 else 1
    width, left, right = 420, 16, 16
    span = width - left - right

    def x_of(value: Fraction) -> float:
        return left + float(value) / top * span

    axis = 52
    parts = [f'<line x1="{left}" y1="{axis}" x2="{width - right}" y2="{axis}" class="axis"/>']
    for whole in range(top + 1):
        x = x_of(Fraction(whole))
        parts.append(f'<line x1="{x}" y1="{axis - 8}" x2="{x}" y2="{axis + 8}" class="axis"/>')
        parts.append(
            f'<text x="{x}" y="{axis + 22}" class="tick" text-anchor="middle">{whole}</text>'
        )
    for (num, den), value, y, css in (
        (first, values[0], axis - 10, "mark-a"),
        (second, values[1], axis + 30, "mark-b"),
    ):
        # Ticks of this fraction's denominator, so the pieces can be counted.
        for piece in range(1, den * top):
            tx = x_of(Fraction(piece, den))
            y1, y2 = (axis - 6, axis) if css == "mark-a" else (axis, axis + 6)
            parts.append(f'<line x1="{tx:.1f}" y1="{y1}" x2="{tx:.1f}" y2="{y2}" class="{css}"/>')
        x = x_of(value)
        shape = (
            f'<path d="M{x - 6:.1f},{y - 8} L{x + 6:.1f},{y - 8} L{x:.1f},{y + 2} Z" '
            f'class="{css}"/>'
            if css == "mark-a"
            else f'<rect x="{x - 5:.1f}" y="{y - 14}" width="10" height="10" class="{css}"/>'
        )
        parts.append(shape)
        text_y = y - 12 if css == "mark-a" else y + 10
        parts.append(
            f'<text x="{x:.1f}" y="{text_y}" class="frac" text-anchor="middle">{num}/{den}</text>'
        )
    return _svg(width, 104, label, "".join(parts), "chart chart--numberline")


def status_symbol(status: str) -> str:
    """Return the shape shown with a status, so the heatmap does not rely on colour."""
    return {
        "likely": "●",
        "emerging": "◐",
        "resolved": "✓",
        "held": "✓✓",
        "not_possible": "–",
    }.get(status, "")
