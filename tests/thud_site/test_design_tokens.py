"""The design system's colour tokens (static/css/site.css) meet WCAG 2.2 AA contrast in
light and dark: text 4.5:1 on the backgrounds it is used on, control borders, focus rings
and the two sides' colours 3:1 (1.4.11)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_text()


def tokens(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", block))


def schemes() -> dict[str, dict[str, str]]:
    light = tokens(CSS[CSS.index(":root {") : CSS.index("}", CSS.index(":root {"))])
    start = CSS.index("@media (prefers-color-scheme: dark)")
    dark = dict(light)
    dark.update(tokens(CSS[start : CSS.index("}", CSS.index(":root {", start))]))
    return {"light": light, "dark": dark}


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


TEXT = [  # (foreground, background): text, 4.5:1
    ("fg", "bg"),
    ("fg", "surface"),
    ("fg", "surface-2"),
    ("muted", "bg"),
    ("muted", "surface"),
    ("muted", "surface-2"),
    ("accent", "bg"),
    ("accent", "surface"),
    ("accent", "accent-soft"),
    ("accent-fg", "accent"),
    ("accent-fg", "accent-hover"),
    ("bad-fg", "bad"),
    ("ok", "ok-soft"),
    ("warn", "warn-soft"),
    ("bad", "bad-soft"),
    ("ok", "surface"),
    ("warn", "surface"),
    ("bad", "surface"),
    ("header-fg", "header-bg"),
    ("header-muted", "header-bg"),
    ("side-first", "surface"),
    ("side-second", "surface"),
    ("fg", "warn-soft"),
]
NON_TEXT = [  # 3:1: control borders, focus rings
    ("control-line", "surface"),
    ("control-line", "bg"),
    ("focus", "bg"),
    ("focus", "surface"),
    ("header-focus", "header-bg"),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_tokens_reach_4_5_to_1(scheme):
    colours = schemes()[scheme]
    low = {(f, b): round(contrast(colours[f], colours[b]), 2) for f, b in TEXT}
    assert {pair: ratio for pair, ratio in low.items() if ratio < 4.5} == {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_borders_and_focus_reach_3_to_1(scheme):
    colours = schemes()[scheme]
    low = {(f, b): round(contrast(colours[f], colours[b]), 2) for f, b in NON_TEXT}
    assert {pair: ratio for pair, ratio in low.items() if ratio < 3} == {}
