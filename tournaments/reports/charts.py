"""Small charts drawn on the server as inline SVG (no JavaScript chart library).

Pure functions: numbers and already-translated labels in, an SVG string out. Every piece of
text is escaped here, so the caller may mark the result safe.

Invariants:
- Nothing is cut: the label columns are as wide as the longest label, measured with
  ``text_width`` (advance widths rounded up from DejaVu Sans and Liberation Sans, the widest
  fonts ``sans-serif`` resolves to), and a name longer than ``svg.MAX_LABEL_CHARS`` is shortened
  with "…" while its full text stays in the ``<title>`` and in the chart's data table.
- Colours are classes (``thud_site.palette.series_class``) styled by ``static/css/charts.css``; the
  light colour is also a presentation attribute, which the CSS overrides on screen and
  WeasyPrint draws in the PDFs. The chart paints its own background, so its contrast holds
  whatever the page behind it.
- The SVG has a ``viewBox`` and its natural ``width``/``height``: CSS shrinks it to its box
  (``max-width: 100%; height: auto``), never stretches it.
- The SVG is ``role="img"``, named by ``aria-labelledby`` (the figure's caption); the data
  are in a table beside it (``thud_site.svg.Figure``), because a screen reader cannot read a chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from thud_site.palette import LIGHT, series_class, series_colour
from thud_site.svg import shorten, svg_open, text_width

LINE_HEIGHT = 18  # the least vertical room one label needs


@dataclass(frozen=True)
class Bar:
    label: str  # shown left of the bar, already translated
    value: float  # a percentage, 0..100
    text: str  # shown right of the bar, e.g. "59.92 % (151)"


BAR_WIDTH = 200


def bar_chart(bars: Sequence[Bar], *, title: str, labelled_by: str) -> str:
    """Horizontal bars of percentages, one row each, coloured as series 1, 2, ...

    >>> svg = bar_chart([Bar("First", 50.0, "50 %")], title="Sides", labelled_by="c")
    >>> 'width="100.0"' in svg and "<title>Sides</title>" in svg
    True
    """
    row, gap = 28, 8
    label_w = gap + max((text_width(b.label) for b in bars), default=0) + gap
    text_w = gap + max((text_width(b.text) for b in bars), default=0) + gap
    width = label_w + BAR_WIDTH + text_w
    height = row * len(bars) + 8
    parts = [svg_open("bar-chart", width, height, labelled_by, title)]
    for i, bar in enumerate(bars):
        y = 4 + i * row
        length = round(BAR_WIDTH * max(0.0, min(100.0, bar.value)) / 100, 1)
        parts.append(
            f'<text x="{label_w - gap:.0f}" y="{y + 19}" text-anchor="end">{escape(bar.label)}'
            "</text>"
            f'<rect class="chart-grid" x="{label_w:.0f}" y="{y + 4}" width="{BAR_WIDTH}" '
            f'height="{row - 8}" fill="none" stroke="{LIGHT.grid}"/>'
            f'<rect class="chart-bar {series_class(i)}" x="{label_w:.0f}" y="{y + 4}" '
            f'width="{length}" height="{row - 8}" fill="{series_colour(i)}"/>'
            f'<text x="{label_w + BAR_WIDTH + gap:.0f}" y="{y + 19}">{escape(bar.text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class Line:
    label: str  # the player's name
    ranks: Sequence[int]  # rank after round 1, 2, ...


# A second cue besides colour: series n has marker n % 8 and a dash pattern that differs
# from the series that share its colour and marker (n and n + 8).
MARKERS = ("circle", "square", "triangle", "diamond", "down", "ring", "box", "rhombus")
DASHES = ("", "7 4", "2 3", "9 3 2 3")


def dash(index: int) -> str:
    return DASHES[(index + index // len(MARKERS)) % len(DASHES)]


def marker(index: int, cx: float, cy: float) -> str:
    """The ``index``-th series' marker centred on (cx, cy); the hollow ones are outlined."""
    kind = MARKERS[index % len(MARKERS)]
    css, colour = series_class(index), series_colour(index)
    solid = f'class="chart-mark {css}" fill="{colour}"'
    hollow = (
        f'class="chart-mark chart-hollow {css}" fill="{LIGHT.background}" stroke="{colour}" '
        'stroke-width="2"'
    )

    def path(points: Sequence[tuple[float, float]], style: str) -> str:
        d = " ".join(f"{cx + dx:g},{cy + dy:g}" for dx, dy in points)
        return f'<polygon points="{d}" {style}/>'

    if kind == "circle":
        return f'<circle cx="{cx}" cy="{cy}" r="4.5" {solid}/>'
    if kind == "ring":
        return f'<circle cx="{cx}" cy="{cy}" r="4" {hollow}/>'
    if kind in ("square", "box"):
        side = 8 if kind == "square" else 7
        style = solid if kind == "square" else hollow
        return f'<rect x="{cx - side / 2:g}" y="{cy - side / 2:g}" width="{side}" height="{side}" {style}/>'
    if kind == "triangle":
        return path(((0, -5.5), (5, 4), (-5, 4)), solid)
    if kind == "down":
        return path(((0, 5.5), (5, -4), (-5, -4)), solid)
    style = solid if kind == "diamond" else hollow
    return path(((0, -5.5), (5.5, 0), (0, 5.5), (-5.5, 0)), style)


def _ticks(worst: int, step_y: float) -> list[int]:
    """The ranks labelled on the y axis: 1, the worst, and multiples that leave room."""
    every = next(k for k in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if k * step_y >= 20)
    ticks = {1, worst} | set(range(every, worst, every))
    return sorted(t for t in ticks if t in (1, worst) or (worst - t) * step_y >= LINE_HEIGHT)


def _label_positions(ends: Sequence[float]) -> list[float]:
    """Label heights for line ends at ``ends``: in order, each at least a line below the last."""
    placed: list[float] = [0.0] * len(ends)
    last = float("-inf")
    for i in sorted(range(len(ends)), key=lambda i: ends[i]):
        last = max(ends[i], last + LINE_HEIGHT)
        placed[i] = last
    return placed


def rank_chart(
    lines: Sequence[Line], *, round_labels: Sequence[str], title: str, labelled_by: str
) -> str:
    """One polyline per player: rank (1 on top) after each round, labelled at its end.

    The y axis runs from 1 to the worst rank any line reaches. Each line has the marker and
    dash of its series and its name at its end (names that would overlap are spread apart
    and joined to their line's end); its full name is its ``<title>``.

    >>> svg = rank_chart([Line("Ann", [2, 1])], round_labels=["R1", "R2"], title="t",
    ...                  labelled_by="c")
    >>> "<polyline" in svg and ">Ann</text>" in svg
    True
    """
    rounds = max(len(round_labels), 1)
    worst = max((r for line in lines for r in line.ranks), default=1)
    left = 12 + text_width(str(worst))
    top, bottom = 14, 30
    step_x = max(40, min(60, 360 // rounds)) if rounds > 1 else 0
    # A big field shares about 320 units of height, so the chart stays a chart on a phone.
    step_y = max(2, min(26, 320 // max(worst, 1)))

    def x(i: int) -> float:
        return left + step_x * i

    def y(rank: int) -> float:
        return top + step_y * (rank - 1)

    drawn = [(n, line) for n, line in enumerate(lines) if line.ranks]
    names = [shorten(line.label) for _, line in drawn]
    ends = [y(line.ranks[-1]) for _, line in drawn]
    label_ys = _label_positions(ends)
    label_x = x(rounds - 1) + 28
    width = label_x + max((text_width(name) for name in names), default=0) + 8
    plot_bottom = y(worst)
    height = max(plot_bottom, max(label_ys, default=0) + 6) + bottom

    parts = [svg_open("rank-chart", width, height, labelled_by, title)]
    for i, label in enumerate(round_labels):
        parts.append(
            f'<line class="chart-grid" x1="{x(i):g}" y1="{top}" x2="{x(i):g}" '
            f'y2="{plot_bottom:g}" stroke="{LIGHT.grid}"/>'
            f'<text x="{x(i):g}" y="{height - 8:g}" text-anchor="middle">{escape(label)}</text>'
        )
    for rank in _ticks(worst, step_y):
        parts.append(f'<text x="{left - 8:g}" y="{y(rank) + 5:g}" text-anchor="end">{rank}</text>')
    for (n, line), name, end_y, label_y in zip(drawn, names, ends, label_ys, strict=True):
        points = " ".join(f"{x(i):g},{y(r):g}" for i, r in enumerate(line.ranks))
        end_x = x(len(line.ranks) - 1)
        pattern = dash(n)
        dashed = f' stroke-dasharray="{pattern}"' if pattern else ""
        parts.append(
            f'<g class="chart-series"><title>{escape(line.label)}</title>'
            f'<polyline class="chart-line {series_class(n)}" points="{points}" fill="none" '
            f'stroke="{series_colour(n)}" stroke-width="2.5"{dashed}/>'
        )
        parts.extend(marker(n, x(i), y(r)) for i, r in enumerate(line.ranks))
        if abs(label_y - end_y) > 1:  # spread apart: a leader from the end to the label
            parts.append(
                f'<line class="chart-leader {series_class(n)}" x1="{end_x + 6:g}" y1="{end_y:g}" '
                f'x2="{label_x - 4:g}" y2="{label_y:g}" stroke="{series_colour(n)}"/>'
            )
        parts.append(
            f'<text class="chart-label" x="{label_x:g}" y="{label_y + 5:g}">{escape(name)}</text>'
            "</g>"
        )
    parts.append("</svg>")
    return "".join(parts)
