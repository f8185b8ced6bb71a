"""The charts' colours: WCAG contrast computed here, and the CSS is the palette's twin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from thud_site.palette import DARK, LIGHT, SERIES, contrast_ratio, relative_luminance

CSS = Path(settings.BASE_DIR) / "static" / "css" / "charts.css"


def luminance(colour: str) -> float:
    """WCAG 2.2 relative luminance, written out again here on purpose (not the code's)."""
    values = []
    for i in (1, 3, 5):
        c = int(colour[i : i + 2], 16) / 255
        values.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = values
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def css_schemes() -> dict[str, dict[str, str]]:
    """The custom properties of charts.css: the light :root, and the dark one."""
    text = CSS.read_text()
    dark_at = text.index("prefers-color-scheme: dark")
    found: dict[str, dict[str, str]] = {"light": {}, "dark": {}}
    for match in re.finditer(r"--(chart-[\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", text):
        found["dark" if match.start() > dark_at else "light"][match.group(1)] = match.group(2)
    return found


@pytest.mark.parametrize("scheme", [LIGHT, DARK], ids=["light", "dark"])
def test_every_series_is_above_4_5_to_1_against_its_background(scheme):
    # WCAG 1.4.11 asks 3:1 of lines and marks; 4.5:1 lets a series colour carry text too.
    for colour in scheme.series:
        assert ratio(colour, scheme.background) >= 4.5, colour
    assert ratio(scheme.text, scheme.background) >= 4.5  # WCAG 1.4.3


@pytest.mark.parametrize("scheme", [LIGHT, DARK], ids=["light", "dark"])
def test_series_colours_are_all_different_and_eight(scheme):
    assert len(scheme.series) == SERIES == 8
    assert len({c.lower() for c in scheme.series}) == 8


def test_the_code_computes_the_ratio_as_wcag_does():
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast_ratio("#f0e442", "#ffffff") == pytest.approx(ratio("#f0e442", "#ffffff"))
    assert round(contrast_ratio("#767676", "#ffffff"), 2) == 4.54  # the known 4.5:1 grey
    assert relative_luminance("#808080") == pytest.approx(luminance("#808080"))


def test_the_okabe_ito_yellow_the_report_used_fails_and_ours_passes():
    assert ratio("#f0e442", "#ffffff") < 3  # the 1.3:1 of issue 22
    assert ratio(LIGHT.series[5], LIGHT.background) >= 4.5


def test_charts_css_holds_the_same_colours_light_and_dark():
    css = css_schemes()
    for name, scheme in (("light", LIGHT), ("dark", DARK)):
        expected = {f"chart-{n}": c for n, c in enumerate(scheme.series, start=1)}
        expected |= {
            "chart-bg": scheme.background,
            "chart-text": scheme.text,
            "chart-grid": scheme.grid,
        }
        assert {k: v.lower() for k, v in css[name].items()} == expected, name


def test_dark_colours_are_for_screens_only():
    assert "@media screen and (prefers-color-scheme: dark)" in CSS.read_text()
