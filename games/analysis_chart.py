"""A battle's evaluation after every move as a small server-drawn SVG (the site's charts).

Pure apart from the chart helpers it takes through ``tournaments.for_games``: points in,
an SVG string out, every text escaped here. The y axis is the evaluation from the first
side's view (above the zero line the first side is ahead), the x axis the plies; each
move is a point, a mistake a larger hollow one with its own colour (a second cue besides
colour: its shape), the replay's current ply a vertical line. The same numbers are the
page's table, the text alternative (``charts.Figure``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from tournaments.for_games import (
    CHART_FONT_SIZE,
    CHART_LIGHT,
    series_class,
    series_colour,
    svg_open,
    text_width,
)

HEIGHT = 180  # the plot's height in units
WIDTH_MAX = 640
PLOT_MIN = 280
STEP_MAX = 24


@dataclass(frozen=True)
class EvalPoint:
    ply: int
    value: float  # points, the first side's view
    label: str  # the point's tooltip, e.g. "12. T G7-F6: −1.5"
    mistake: bool = False


def scale_top(values: Sequence[float]) -> int:
    """The y axis runs from ``-top`` to ``top``: a round number above every value.

    >>> scale_top([0.4, -1.2]), scale_top([7.5]), scale_top([-31])
    (2, 10, 40)
    """
    peak = max((abs(v) for v in values), default=0.0)
    return next(t for t in (2, 5, 10, 20, 40, 60, 100, 200, 500, 1000, 10**6) if peak <= t)


def eval_chart(
    points: Sequence[EvalPoint],
    *,
    last_ply: int,
    current_ply: int,
    above: str,
    below: str,
    title: str,
    labelled_by: str,
) -> str:
    """The evaluation line over plies 0 to ``last_ply``; ``above`` and ``below`` name
    the halves (who is ahead there).

    >>> svg = eval_chart([EvalPoint(1, 1.0, "1. d A1-A2: +1")], last_ply=1, current_ply=1,
    ...                  above="Ann ahead", below="Bob ahead", title="t", labelled_by="c")
    >>> "<polyline" in svg and ">Ann ahead</text>" in svg and "+1</title>" in svg
    True
    """
    top_value = scale_top([p.value for p in points])
    ticks = [top_value, top_value // 2, 0, -(top_value // 2), -top_value]
    left = 12 + max(text_width(signed(t)) for t in ticks)
    # The halves' names sit outside the plot: above its top, below the plies' numbers.
    top, bottom = 16 + CHART_FONT_SIZE, 24 + 2 * CHART_FONT_SIZE
    plies = max(last_ply, 1)
    step = min(STEP_MAX, max(PLOT_MIN / plies, 0.0), (WIDTH_MAX - left - 24) / plies)
    width = left + 12 + step * plies + 12

    def x(ply: float) -> float:
        return round(left + 12 + step * ply, 1)

    def y(value: float) -> float:
        return round(top + HEIGHT * (top_value - value) / (2 * top_value), 1)

    parts = [svg_open("eval-chart", width, top + HEIGHT + bottom, labelled_by, title)]
    for t in ticks:
        style = ' stroke-width="2"' if t == 0 else ' stroke-dasharray="3 3"'
        parts.append(
            f'<line class="chart-grid" x1="{left:g}" y1="{y(t):g}" x2="{width - 6:g}" '
            f'y2="{y(t):g}" stroke="{CHART_LIGHT.grid}"{style}/>'
            f'<text x="{left - 6:g}" y="{y(t) + 5:g}" text-anchor="end">{signed(t)}</text>'
        )
    parts.append(
        f'<text x="{left:g}" y="{top - 10:g}">{escape(above)}</text>'
        f'<text x="{left:g}" y="{top + HEIGHT + bottom - 6:g}">{escape(below)}</text>'
    )
    every = next(k for k in (1, 2, 5, 10, 20, 50, 100, 1000, 10**6) if k * step >= 28)
    for ply in range(0, last_ply + 1, every):
        parts.append(
            f'<text x="{x(ply):g}" y="{top + HEIGHT + 4 + CHART_FONT_SIZE:g}" '
            f'text-anchor="middle">{ply}</text>'
        )
    if 0 < current_ply <= last_ply:
        parts.append(
            f'<line class="chart-line eval-current {series_class(7)}" x1="{x(current_ply):g}" '
            f'y1="{top}" x2="{x(current_ply):g}" y2="{top + HEIGHT}" '
            f'stroke="{series_colour(7)}" stroke-width="1.5" stroke-dasharray="6 3"/>'
        )
    if points:
        colour, css = series_colour(0), series_class(0)
        line = " ".join(f"{x(p.ply):g},{y(p.value):g}" for p in points)
        parts.append(
            f'<polyline class="chart-line {css}" points="{line}" fill="none" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        for p in points:
            if p.mistake:
                bad = series_class(1)
                parts.append(
                    f'<circle class="chart-mark chart-hollow eval-mistake {bad}" cx="{x(p.ply):g}" '
                    f'cy="{y(p.value):g}" r="5.5" fill="{CHART_LIGHT.background}" '
                    f'stroke="{series_colour(1)}" stroke-width="2.5">'
                    f"<title>{escape(p.label)}</title></circle>"
                )
            else:
                parts.append(
                    f'<circle class="chart-mark {css}" cx="{x(p.ply):g}" cy="{y(p.value):g}" '
                    f'r="{2.5 if step < 8 else 3.5}" fill="{colour}">'
                    f"<title>{escape(p.label)}</title></circle>"
                )
    parts.append("</svg>")
    return "".join(parts)


def signed(value: float) -> str:
    """A signed number of points as the page shows it (a true minus sign).

    >>> signed(4), signed(-1.5), signed(0), signed(2.26), signed(-0.04)
    ('+4', '−1.5', '0', '+2.3', '0')
    """
    rounded = round(abs(value), 1)
    if rounded == 0:
        return "0"
    text = f"{rounded:.1f}".removesuffix(".0")
    return ("+" if value > 0 else "\u2212") + text
