"""The charts' colours, and the WCAG 2.2 contrast arithmetic that checks them.

Terminology and invariants:
- A *series* is one line of the rank chart or one bar of a side chart; series ``n`` (1..8)
  is drawn with the class ``chart-sn``, which ``static/css/charts.css`` colours with
  ``--chart-n``. The SVG also carries the light colour as a presentation attribute, the
  fallback WeasyPrint draws in the PDFs (its SVG renderer reads no page CSS): so the light
  palette here and the CSS's light custom properties are the same numbers (a test reads
  the CSS and compares them).
- Every series colour has a contrast ratio of at least 4.5:1 against its chart background,
  light and dark: more than the 3:1 WCAG 1.4.11 asks of lines and marks, so a colour stays
  legible when it carries text too. Text (``TEXT``) is above 4.5:1 (WCAG 1.4.3).
- The palette is Okabe–Ito's colour-blind-safe set, darkened for the light background and
  lightened for the dark one where the original was below 4.5:1 (yellow was 1.3:1 on white).
  Colour is never the only cue: every rank line also has its own marker, dash pattern and a
  direct label (``charts.rank_chart``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Scheme:
    background: str
    text: str
    grid: str  # decorative: axis guides and the bars' 100 % outline
    series: Sequence[str]


# Okabe–Ito order: blue, vermillion, bluish green, reddish purple, orange, yellow, sky blue,
# black; the first lines (the leaders) get the most distinct hues.
LIGHT = Scheme(
    background="#ffffff",
    text="#1c2024",
    grid="#c4c4c4",
    series=(
        "#005a8f",  # blue, darkened from #0072b2
        "#be5400",  # vermillion, from #d55e00
        "#008460",  # bluish green, from #009e73
        "#bb4d8a",  # reddish purple, from #cc79a7
        "#9c6c00",  # orange, from #e69f00
        "#80770a",  # yellow, from #f0e442 (1.3:1 on white before)
        "#177ab2",  # sky blue, from #56b4e9
        "#333333",  # black, softened
    ),
)
DARK = Scheme(
    background="#1d2328",
    text="#e8eaed",
    grid="#55555c",
    series=(
        "#3a9fe0",  # blue, lightened from #0072b2
        "#ef7a2a",  # vermillion, from #d55e00
        "#2bbd8f",  # bluish green, from #009e73
        "#d98cb8",  # reddish purple, from #cc79a7
        "#e69f00",  # orange
        "#f0e442",  # yellow
        "#8fd0f5",  # sky blue, from #56b4e9
        "#d4d4d4",  # black, inverted to light grey
    ),
)
SERIES = len(LIGHT.series)


def series_class(index: int) -> str:
    """The CSS class of the ``index``-th series (0-based), cycling through the palette.

    >>> series_class(0), series_class(8)
    ('chart-s1', 'chart-s1')
    """
    return f"chart-s{index % SERIES + 1}"


def series_colour(index: int) -> str:
    """The light colour of the ``index``-th series: the PDF's fallback."""
    return LIGHT.series[index % SERIES]


def relative_luminance(colour: str) -> float:
    """WCAG 2.2's relative luminance of a ``#rrggbb`` colour.

    >>> relative_luminance("#ffffff"), relative_luminance("#000000")
    (1.0, 0.0)
    """
    digits = colour.removeprefix("#")
    if len(digits) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")

    def channel(pair: str) -> float:
        c = int(pair, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(digits[i : i + 2]) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(one: str, other: str) -> float:
    """WCAG 2.2's contrast ratio, 1.0 to 21.0.

    >>> round(contrast_ratio("#ffffff", "#000000"), 1)
    21.0
    >>> round(contrast_ratio("#f0e442", "#ffffff"), 2)  # Okabe–Ito's yellow on white
    1.32
    """
    lighter, darker = sorted((relative_luminance(one), relative_luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)
