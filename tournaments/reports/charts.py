"""Small charts drawn on the server as inline SVG (no JavaScript chart library).

Pure functions: numbers and already-translated labels in, an SVG string out. Every piece of
text is escaped here, so the caller may mark the result safe. The SVGs scale to their
container (``viewBox`` with ``width: 100%`` in the CSS), so they never widen a phone page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

FONT_SIZE = 14
# Colour-blind-safe palette (Okabe–Ito), cycled for the rank lines.
PALETTE = (
    "#0072b2",
    "#e69f00",
    "#009e73",
    "#cc79a7",
    "#56b4e9",
    "#d55e00",
    "#f0e442",
    "#000000",
)


@dataclass(frozen=True)
class Bar:
    label: str  # shown left of the bar, already translated
    value: float  # a percentage, 0..100
    text: str  # shown right of the bar, e.g. "59.92 % (151)"
    colour: str


def bar_chart(bars: Sequence[Bar], *, title: str) -> str:
    """Horizontal bars of percentages, one row each.

    >>> svg = bar_chart([Bar("First", 50.0, "50 %", "#333")], title="Sides")
    >>> 'width="100.0"' in svg and "<title>Sides</title>" in svg
    True
    """
    row, label_w, bar_w, text_w = 26, 120, 200, 110
    width = label_w + bar_w + text_w
    height = row * len(bars) + 8
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}" font-family="sans-serif" font-size="{FONT_SIZE}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for i, bar in enumerate(bars):
        y = 4 + i * row
        length = round(bar_w * max(0.0, min(100.0, bar.value)) / 100, 1)
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 18}" text-anchor="end">{escape(bar.label)}</text>'
            f'<rect x="{label_w}" y="{y + 3}" width="{bar_w}" height="{row - 6}" fill="#eee"/>'
            f'<rect x="{label_w}" y="{y + 3}" width="{length}" height="{row - 6}" '
            f'fill="{escape(bar.colour)}"/>'
            f'<text x="{label_w + bar_w + 6}" y="{y + 18}">{escape(bar.text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class Line:
    label: str  # the player's name
    ranks: Sequence[int]  # rank after round 1, 2, ...


def rank_chart(
    lines: Sequence[Line], *, players: int, round_labels: Sequence[str], title: str
) -> str:
    """One polyline per player: rank (1 on top) after each round.

    ``players`` sets the vertical scale (the worst possible rank); ``round_labels`` label the
    x axis. Each line carries its name in a ``<title>`` (shown on hover) and at its end.

    >>> svg = rank_chart([Line("Ann", [2, 1])], players=2, round_labels=["R1", "R2"], title="t")
    >>> "<polyline" in svg and "Ann" in svg
    True
    """
    rounds = max(len(round_labels), 1)
    left, top, right, bottom = 34, 12, 130, 26
    step_x = 60 if rounds > 1 else 0
    # A big field shares about 320 units of height, so the chart stays a chart on a phone.
    step_y = max(1, min(24, 320 // max(players, 1)))
    width = left + step_x * (rounds - 1) + right
    height = top + step_y * (max(players, 1) - 1) + bottom

    def x(i: int) -> int:
        return left + step_x * i

    def y(rank: int) -> int:
        return top + step_y * (rank - 1)

    parts = [
        f'<svg class="chart rank-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}" font-family="sans-serif" font-size="{FONT_SIZE}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for i, label in enumerate(round_labels):
        parts.append(
            f'<line x1="{x(i)}" y1="{top}" x2="{x(i)}" y2="{y(max(players, 1))}" stroke="#ddd"/>'
            f'<text x="{x(i)}" y="{height - 6}" text-anchor="middle">{escape(label)}</text>'
        )
    for rank in sorted({1, max(players, 1)}):
        parts.append(f'<text x="{left - 8}" y="{y(rank) + 4}" text-anchor="end">{rank}</text>')
    for n, line in enumerate(lines):
        if not line.ranks:
            continue
        colour = PALETTE[n % len(PALETTE)]
        points = " ".join(f"{x(i)},{y(r)}" for i, r in enumerate(line.ranks))
        end_x, end_y = x(len(line.ranks) - 1), y(line.ranks[-1])
        parts.append(
            f"<g><title>{escape(line.label)}</title>"
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>'
            f'<circle cx="{end_x}" cy="{end_y}" r="3" fill="{colour}"/>'
            f'<text x="{end_x + 6}" y="{end_y + 4}" fill="{colour}">{escape(line.label)}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)
