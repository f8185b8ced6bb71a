"""The site's SVG charts' shared primitives: the font size, the advance widths that
measure a label (``text_width``), a long label shortened, the ``<svg>`` of a chart named by
its caption, and a chart with its data as a table (``Figure``), the text alternative a
screen reader reads. Pure: strings and numbers in, strings out; no app imported, so the
tournaments' charts (``tournaments.reports.charts``, ``rating_chart``) and the games'
analysis graph (``games.analysis_chart``) draw with the same measures and colours
(``thud_site.palette``).

Every piece of text a caller puts in is escaped by the caller; ``svg_open`` escapes
its own.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from thud_site.palette import LIGHT

FONT_SIZE = 14
MAX_LABEL_CHARS = 28

# Advance widths in em, rounded up to 0.05 em over DejaVu Sans and Liberation Sans.
_WIDTHS = {
    0.30: "'Iijl",
    0.35: " ,./:;\\|",
    0.40: "()-[]ft",
    0.45: "!r",
    0.50: '"*J`',
    0.55: "csz",
    0.60: "?L_kvxy",
    0.65: "$0123456789FTabdeghnopqu{}",
    0.70: "ABEKPSVXYZ",
    0.75: "CNRU",
    0.80: "&DGHOQ",
    0.85: "#+<=>^w~",
    0.90: "M",
    1.00: "%Wm",
    1.05: "@",
}
_EM = {char: width for width, chars in _WIDTHS.items() for char in chars}


def _char_width(char: str) -> float:
    if char in _EM:
        return _EM[char]
    if unicodedata.east_asian_width(char) in "WF":
        return 1.05
    base = unicodedata.normalize("NFD", char)[:1]  # "Ü" is as wide as "U"
    return _EM.get(base, 0.8)  # other scripts: wider than most Latin letters


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """A width ``text`` will not exceed in a sans-serif font of ``size`` units.

    >>> text_width("Ill") < text_width("MWm")
    True
    >>> text_width("Überwald") == text_width("Uberwald")
    True
    """
    return sum(_char_width(c) for c in text) * size


def shorten(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    """``text``, cut to ``limit`` characters with "…" if longer.

    >>> shorten("Carrot Ironfoundersson", 10)
    'Carrot Ir…'
    >>> shorten("Nobby")
    'Nobby'
    """
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def svg_open(css_class: str, width: float, height: float, labelled_by: str, title: str) -> str:
    w, h = round(width), round(height)
    return (
        f'<svg class="chart {css_class}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
        f'role="img" aria-labelledby="{escape(labelled_by)}" font-family="sans-serif" '
        f'font-size="{FONT_SIZE}" fill="{LIGHT.text}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>"
        f'<rect class="chart-bg" width="{w}" height="{h}" fill="{LIGHT.background}"/>'
    )


def caption_id(figure_id: str) -> str:
    """The id of the figure's caption, which names its SVG (``aria-labelledby``)."""
    return f"{figure_id}-caption"


@dataclass(frozen=True)
class Figure:
    """A chart and its data as a table: what ``_side_stats.html#chart-figure`` renders.

    ``columns`` head the table (the first heads the row labels); each row is a label (a
    ``<th scope="row">``) and one cell per other column.
    """

    id: str  # unique on the page
    caption: str
    svg: str  # safe HTML (the caller marks it so)
    columns: Sequence[str]
    rows: Sequence[tuple[str, Sequence[str]]]

    @property
    def caption_id(self) -> str:
        return caption_id(self.id)
