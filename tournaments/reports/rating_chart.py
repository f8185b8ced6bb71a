"""A player's rating history as a small server-drawn SVG (``charts``' house style).

Pure: the points (a label, the rating and the RD after each period) in, an SVG string out.
The line is the rating after each period; the shaded band is rating ± RD, so the chart
shows how sure the rating is as well as where it is. The same numbers are the figure's
table (``thud_site.svg.Figure``), the text alternative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from thud_site.palette import LIGHT, series_class, series_colour
from thud_site.svg import FONT_SIZE, svg_open, text_width

HEIGHT = 200  # the plot's height in units
STEP_MAX = 48
WIDTH_MAX = 640
#: The least width of the plot between the first and the last period, so that a short
#: history is not a sliver (two periods are a line across it, not 48 units apart).
PLOT_MIN = 240


@dataclass(frozen=True)
class Point:
    label: str  # the period, as the table names it
    rating: float
    rd: float


def _ticks(low: float, high: float) -> list[int]:
    """Round ratings on the y axis: a step of 50, 100, 200 ... giving at most six ticks."""
    step = next(s for s in (50, 100, 200, 500, 1000, 10**6) if (high - low) / s <= 5)
    first = math.ceil(low / step) * step
    return list(range(first, math.floor(high) + 1, step))


def rating_chart(points: Sequence[Point], *, title: str, labelled_by: str) -> str:
    """The rating after each period as a line over its ± RD band, periods left to right.

    >>> svg = rating_chart([Point("1", 1600, 250), Point("2", 1580, 200)], title="t",
    ...                    labelled_by="c")
    >>> "<polyline" in svg and "<polygon" in svg and ">1600</text>" in svg
    True
    """
    low = min((p.rating - p.rd for p in points), default=1400)
    high = max((p.rating + p.rd for p in points), default=1600)
    low, high = math.floor(low / 50) * 50, math.ceil(high / 50) * 50
    high = max(high, low + 50)
    ticks = _ticks(low, high)
    left = 12 + max((text_width(str(t)) for t in ticks), default=0)
    top, bottom = 12, 12 + FONT_SIZE
    n = len(points)
    gaps = max(n - 1, 1)
    step = min(max(STEP_MAX, PLOT_MIN / gaps), (WIDTH_MAX - left - 24) / gaps)
    width = left + step * max(n - 1, 0) + 24

    def x(i: int) -> float:
        return left + 12 + step * i

    def y(value: float) -> float:
        return top + HEIGHT * (high - value) / (high - low)

    parts = [svg_open("rating-chart", width, top + HEIGHT + bottom, labelled_by, title)]
    for t in ticks:
        parts.append(
            f'<line class="chart-grid" x1="{left:g}" y1="{y(t):g}" x2="{width - 6:g}" '
            f'y2="{y(t):g}" stroke="{LIGHT.grid}"/>'
            f'<text x="{left - 6:g}" y="{y(t) + 5:g}" text-anchor="end">{t}</text>'
        )
    if points:
        upper = [f"{x(i):g},{y(p.rating + p.rd):g}" for i, p in enumerate(points)]
        lower = [f"{x(i):g},{y(p.rating - p.rd):g}" for i, p in reversed(list(enumerate(points)))]
        colour, css = series_colour(0), series_class(0)
        parts.append(
            f'<polygon class="chart-mark {css}" points="{" ".join(upper + lower)}" '
            f'fill="{colour}" fill-opacity="0.15"/>'
        )
        line = " ".join(f"{x(i):g},{y(p.rating):g}" for i, p in enumerate(points))
        parts.append(
            f'<polyline class="chart-line {css}" points="{line}" fill="none" '
            f'stroke="{colour}" stroke-width="2.5"/>'
        )
        for i, p in enumerate(points):
            parts.append(
                f'<circle class="chart-mark {css}" cx="{x(i):g}" cy="{y(p.rating):g}" r="4" '
                f'fill="{colour}"><title>{escape(p.label)}: {p.rating:.0f} ± {p.rd:.0f}</title>'
                "</circle>"
            )
    parts.append("</svg>")
    return "".join(parts)
