"""Tiny's words travel in its own package (issue 43): its catalogue under
``tests/games/tiny/locale`` is complete in every language the site speaks, holds the strings
the package marks, and the site serves them (the rules page, the side names) in Italian and
Norwegian with no catalogue outside the package knowing the game."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.urls import reverse
from django.utils import translation

from games.engines import registry
from tests.i18n.support import ROOT, TRANSLATED
from tests.i18n.test_catalogs import PLACEHOLDER, untranslated

PACKAGE = Path(__file__).resolve().parents[1] / "tiny"
MARKED = re.compile(r"""gettext(?:_noop|_lazy)?\(\s*"([^"]+)"\s*\)""")
TEMPLATE_MARKED = re.compile(r"""\{% translate "([^"]+)" %\}""")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(PACKAGE / "locale" / language / "LC_MESSAGES" / "django.po"))


def marked_in_package() -> set[str]:
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        found.update(MARKED.findall(path.read_text()))
    for path in PACKAGE.rglob("*.html"):
        found.update(TEMPLATE_MARKED.findall(path.read_text()))
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_is_complete_and_keeps_every_placeholder(language):
    po = catalogue(language)
    assert po.metadata.get("Language") == language
    assert untranslated(po) == []
    assert not [entry.msgid for entry in po if "fuzzy" in entry.flags]
    for entry in po:
        assert sorted(PLACEHOLDER.findall(entry.msgid)) == sorted(
            PLACEHOLDER.findall(entry.msgstr)
        ), entry.msgid


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_the_package_marks_is_in_its_catalogue(language):
    marked = marked_in_package()
    assert {"Tiny", "Gold", "Silver"} <= marked
    held = {entry.msgid for entry in catalogue(language)}
    assert marked - held == set()


def test_no_catalogue_outside_the_package_names_the_game():
    for po_file in (ROOT / "locale").rglob("*.po"):
        assert not [e.msgid for e in polib.pofile(str(po_file)) if e.msgid in {"Gold", "Silver"}]


@pytest.mark.parametrize(
    ("language", "title", "gold"), [("it", "Tiny", "Oro"), ("nb", "Tiny", "Gull")]
)
def test_the_site_speaks_tiny_in_each_language(client, language, title, gold):
    with translation.override(language):
        tiny = registry.get("tiny")
        assert translation.gettext(tiny.sides[0].name) == gold
        english = "A test game: three pawns a side"
        page = client.get(
            reverse("rules_game", kwargs={"game": "tiny"}), HTTP_ACCEPT_LANGUAGE=language
        )
    assert page.status_code == 200
    body = page.content.decode()
    assert f"<h1>{title}</h1>" in body
    assert english not in body
    assert f'lang="{language}"' in body
