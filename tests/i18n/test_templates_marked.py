"""No template shows words a translator never sees: every user-visible word in
templates/ is inside {% translate %} / {% blocktranslate %}, or comes from a variable.

The scanner drops, in order: comments, translated text, <script>/<style>, variables and
tags, then HTML tags (keeping the attributes a browser shows: title, placeholder, alt,
aria-label, label). What is left may only be whitespace, punctuation, digits and symbols.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from .support import ROOT

TEMPLATES = ROOT / "templates"
SHOWN_ATTRIBUTE = re.compile(
    r"""\b(?:title|placeholder|alt|aria-label|label)\s*=\s*(?:"([^"]*)"|'([^']*)')"""
)
# Deliberate exceptions: (template, word) -> reason. Keep it short.
EXCEPTIONS: dict[tuple[str, str], str] = {}


def untranslated_words(source: str) -> list[str]:
    text = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    text = re.sub(r"\{%\s*comment\b.*?%\}.*?\{%\s*endcomment\s*%\}", " ", text, flags=re.S)
    text = re.sub(
        r"\{%\s*blocktrans(?:late)?\b.*?%\}.*?\{%\s*endblocktrans(?:late)?\s*%\}",
        " ",
        text,
        flags=re.S,
    )
    text = re.sub(r"\{%\s*trans(?:late)?\s.*?%\}", " ", text, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1\s*>", " ", text, flags=re.S | re.I)
    text = re.sub(r"\{\{.*?\}\}", " ", text, flags=re.S)
    text = re.sub(r"\{%.*?%\}", " ", text, flags=re.S)
    shown: list[str] = []

    def tag(match: re.Match) -> str:
        shown.extend(a or b for a, b in SHOWN_ATTRIBUTE.findall(match.group(0)))
        return " "

    text = re.sub(r"<[^>]*>", tag, text, flags=re.S)
    text = re.sub(r"&#?\w+;", " ", text)  # entities: &nbsp; &middot; &#8211;
    tokens = re.findall(r"[^\W\d_]+", " ".join([*shown, text]))
    # Letters only: "½" is alphanumeric to Python but no word.
    return [t for t in tokens if any(unicodedata.category(c).startswith("L") for c in t)]


@pytest.mark.parametrize(
    "source",
    [
        "<p>Round {{ n }}</p>",
        '<button title="Delete">{% translate "x" %}</button>',
        "<th>{% translate 'Name' %}</th><th>Club</th>",
        "{% blocktranslate %}Fine{% endblocktranslate %} but this is not",
        "<input placeholder='Search'>",
    ],
)
def test_scanner_finds_words_outside_translation(source):
    assert untranslated_words(source)


@pytest.mark.parametrize(
    "source",
    [
        '{% load i18n %}<p>{% translate "Round" %} {{ n }} · 3–1 (½)</p>',
        "{% blocktranslate trimmed with a=b %}\n Some <em>long</em> text\n{% endblocktranslate %}",
        "{# Note to self #}{% comment %}Old markup{% endcomment %}<div class='x' id=y></div>",
        "<script>var words = 'not shown';</script><style>.a { color: red }</style>",
        "<abbr title=\"{% translate 'wins' %}\">{{ label }}</abbr>&nbsp;&middot;",
    ],
)
def test_scanner_accepts_marked_text_variables_and_markup(source):
    assert untranslated_words(source) == []


def test_every_template_marks_its_visible_words():
    found = {}
    for path in sorted(TEMPLATES.rglob("*.html")):
        name = str(path.relative_to(TEMPLATES))
        words = [w for w in untranslated_words(path.read_text()) if (name, w) not in EXCEPTIONS]
        if words:
            found[name] = words
    assert not found, f"words outside {{% translate %}}: {found}"
