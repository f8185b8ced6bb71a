"""A battle's evaluation after every move as a small server-drawn SVG (the site's charts).

Pure, with the site's chart measures and colours (``thud_site.svg``, ``thud_site.palette``): points in,
an SVG string out, every text escaped here. The y axis is the evaluation from the first
side's view (above the zero line the first side is ahead), the x axis the plies; each
move is a point, a mistake a larger hollow one with its own colour, a blunder a hollow
diamond (a second cue besides colour: the shape), the replay's current ply a vertical
line. Each point is a link to the replay at its ply, named by its label (keyboard and
screen reader reach it like any link). The drawing is as wide as its box. The same
numbers are the page's table, the text alternative (``charts.Figure``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from thud_site.palette import LIGHT, series_class, series_colour
from thud_site.svg import FONT_SIZE, text_width

HEIGHT = 180  # the plot's height in units
#: The drawing's width in units: the page scales it to the width of its box (100 %).
WIDTH = 640


@dataclass(frozen=True)
class EvalPoint:
    ply: int
    value: float  # points, the first side's view
    label: str  # the point's accessible name and tooltip, e.g. "Move 12. T G7-F6: −1.5"
    judgement: str = ""  # "blunder", "mistake", "inaccuracy" or ""
    href: str = ""  # where the point leads (the replay at its ply); "": not a link


def scale_top(values: Sequence[float]) -> int:
    """The y axis runs from ``-top`` to ``top``: a round number above every value.

    >>> scale_top([0.4, -1.2]), scale_top([7.5]), scale_top([-31])
    (2, 10, 40)
    """
    peak = max((abs(v) for v in values), default=0.0)
    return next(t for t in (2, 5, 10, 20, 40, 60, 100, 200, 500, 1000, 10**6) if peak <= t)


def _open(width: float, height: float, labelled_by: str, title: str) -> str:
    """The ``<svg>``: a group (its points are links, which an image would hide), as
    wide as its box (``width="100%"``), its height following from the view box."""
    w, h = round(width), round(height)
    return (
        f'<svg class="chart eval-chart" viewBox="0 0 {w} {h}" width="100%" '
        f'preserveAspectRatio="xMidYMid meet" role="group" aria-labelledby="{escape(labelled_by)}" '
        f'font-family="sans-serif" font-size="{FONT_SIZE}" fill="{LIGHT.text}" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<rect class="chart-bg" width="{w}" height="{h}" fill="{LIGHT.background}"/>'
    )


def _mark(p: EvalPoint, cx: float, cy: float, small: bool) -> str:
    """A point's mark: a blunder a hollow diamond, a mistake a hollow circle (shapes
    besides the colour), any other move a small dot."""
    if p.judgement == "blunder":
        r = 7
        path = f"M{cx:g} {cy - r:g}L{cx + r:g} {cy:g}L{cx:g} {cy + r:g}L{cx - r:g} {cy:g}Z"
        return (
            f'<path class="chart-mark chart-hollow eval-blunder {series_class(1)}" d="{path}" '
            f'fill="{LIGHT.background}" stroke="{series_colour(1)}" stroke-width="2.5"/>'
        )
    if p.judgement == "mistake":
        return (
            f'<circle class="chart-mark chart-hollow eval-mistake {series_class(1)}" '
            f'cx="{cx:g}" cy="{cy:g}" r="5.5" fill="{LIGHT.background}" '
            f'stroke="{series_colour(1)}" stroke-width="2.5"/>'
        )
    return (
        f'<circle class="chart-mark {series_class(0)}" cx="{cx:g}" cy="{cy:g}" '
        f'r="{2.5 if small else 3.5}" fill="{series_colour(0)}"/>'
    )


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
    the halves (who is ahead there). A point with an ``href`` is a link (its column of
    the plot is the target, so a finger finds it), named by its ``label``; the point of
    ``current_ply`` says so (``aria-current``).

    >>> svg = eval_chart([EvalPoint(1, 1.0, "Move 1. d A1-A2: +1", href="?ply=1")],
    ...                  last_ply=1, current_ply=1, above="Ann ahead", below="Bob ahead",
    ...                  title="t", labelled_by="c")
    >>> "<polyline" in svg and ">Ann ahead</text>" in svg and 'aria-label="Move 1. d A1-A2: +1"' in svg
    True
    """
    top_value = scale_top([p.value for p in points])
    ticks = [top_value, top_value // 2, 0, -(top_value // 2), -top_value]
    left = 12 + max(text_width(signed(t)) for t in ticks)
    # The halves' names sit outside the plot: above its top, below the plies' numbers.
    top, bottom = 16 + FONT_SIZE, 24 + 2 * FONT_SIZE
    plies = max(last_ply, 1)
    step = (WIDTH - left - 36) / plies
    width = WIDTH

    def x(ply: float) -> float:
        return round(left + 12 + step * ply, 1)

    def y(value: float) -> float:
        return round(top + HEIGHT * (top_value - value) / (2 * top_value), 1)

    parts = [
        _open(width, top + HEIGHT + bottom, labelled_by, title),
        f"<title>{escape(title)}</title>",
    ]
    for t in ticks:
        style = ' stroke-width="2"' if t == 0 else ' stroke-dasharray="3 3"'
        parts.append(
            f'<line class="chart-grid" x1="{left:g}" y1="{y(t):g}" x2="{width - 6:g}" '
            f'y2="{y(t):g}" stroke="{LIGHT.grid}"{style}/>'
            f'<text x="{left - 6:g}" y="{y(t) + 5:g}" text-anchor="end">{signed(t)}</text>'
        )
    parts.append(
        f'<text x="{left:g}" y="{top - 10:g}">{escape(above)}</text>'
        f'<text x="{left:g}" y="{top + HEIGHT + bottom - 6:g}">{escape(below)}</text>'
    )
    every = next(k for k in (1, 2, 5, 10, 20, 50, 100, 1000, 10**6) if k * step >= 28)
    for ply in range(0, last_ply + 1, every):
        parts.append(
            f'<text x="{x(ply):g}" y="{top + HEIGHT + 4 + FONT_SIZE:g}" '
            f'text-anchor="middle">{ply}</text>'
        )
    if 0 < current_ply <= last_ply:
        parts.append(
            f'<line class="chart-line eval-current {series_class(7)}" x1="{x(current_ply):g}" '
            f'y1="{top}" x2="{x(current_ply):g}" y2="{top + HEIGHT}" '
            f'stroke="{series_colour(7)}" stroke-width="1.5" stroke-dasharray="6 3"/>'
        )
    if points:
        line = " ".join(f"{x(p.ply):g},{y(p.value):g}" for p in points)
        parts.append(
            f'<polyline class="chart-line {series_class(0)}" points="{line}" fill="none" '
            f'stroke="{series_colour(0)}" stroke-width="2"/>'
        )
        for p in points:
            mark = _mark(p, x(p.ply), y(p.value), small=step < 8)
            label = escape(p.label)
            if not p.href:
                parts.append(f"<g>{mark}<title>{label}</title></g>")
                continue
            current = ' aria-current="step"' if p.ply == current_ply else ""
            parts.append(
                f'<a class="eval-point" href="{escape(p.href)}" aria-label="{label}"{current}>'
                f'<rect class="eval-hit" x="{x(p.ply) - step / 2:g}" y="{top}" '
                f'width="{step:g}" height="{HEIGHT}" fill="transparent"/>'
                f"{mark}<title>{label}</title></a>"
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
