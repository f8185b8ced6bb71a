"""Icons are inline SVG, never font glyphs (issue 42): a symbol from the blocks that many
phones' fonts lack (drawn there as an empty box) may not appear in a template, a script or
a stylesheet's ``content``. Arrows (→ ↑), guillemets (‹ ›) and other text punctuation are
in every font and stay. Exceptions are named with their reason."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Miscellaneous Technical (⌘ ⏮ ⏭), Geometric Shapes (▶ ◀ ▸ ▾), Miscellaneous Symbols and
# Dingbats (☰ ★ ⚠ ✓ ✗), Miscellaneous Symbols and Arrows (⬆ ⭐), the emoji planes.
GLYPH = re.compile("[\u2300-\u23ff\u25a0-\u25ff\u2600-\u27bf\u2b00-\u2bff\U0001f300-\U0001faff]")

EXCEPTIONS = {
    # The replay page is another part of issue 42's (its controls become SVG there).
    "templates/games/replay.html": None,
    # The clock's ▶ marks the running face, next to its words; kept on purpose.
    "templates/games/clock_panel.html": {"▶"},
    "static/js/clock.js": {"▶"},  # a comment about that marker
    "static/css/games.css": {"▶"},  # the same, in a comment
    # The battle page's confirmed-score tick is the battle page's own (not in this part).
    "templates/games/battle.html": {"✓"},
    # The Mac Command key named in a sentence, as printed on the key.
    "static/js/copy_link.js": {"⌘"},
}


def glyphs(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".css":
        text = " ".join(re.findall(r"content:\s*([^;]*);", text))
    return set(GLYPH.findall(text))


def test_no_icon_is_a_font_glyph_that_may_draw_as_an_empty_box():
    found = {}
    files = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("static/js/*.js")]
    files += ROOT.glob("static/css/*.css")
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        allowed = EXCEPTIONS.get(name, set())
        if allowed is None:
            continue
        if extra := glyphs(path) - allowed:
            found[name] = sorted(extra)
    assert found == {}


def test_the_rules_catch_a_glyph_in_a_css_content_and_leave_a_comment():
    css = ROOT / "test-output" / "glyph-probe.css"
    css.parent.mkdir(exist_ok=True)
    css.write_text('/* ▶ in a comment */ a::before { content: "⚠ "; }', encoding="utf-8")
    try:
        assert glyphs(css) == {"⚠"}
    finally:
        css.unlink()
