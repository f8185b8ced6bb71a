"""clock.js takes its words from Django's JavaScript catalog, loaded by the clock pages."""

from __future__ import annotations

import re

import polib
import pytest
from django.urls import reverse

from .support import ROOT, po_path

CLOCK_JS = ROOT / "static" / "js" / "clock.js"


@pytest.mark.parametrize(("language", "words"), [("it", ["MUOVI ORA", "Muove: %(side)s"])])
def test_catalog_serves_the_clock_words_and_the_decimal_comma(client, language, words):
    body = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE=language)
    text = body.content.decode()
    for word in words:
        assert word in text
    assert '"DECIMAL_SEPARATOR": ","' in text


def test_english_catalog_has_no_translations(client):
    text = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "MUOVI ORA" not in text
    assert '"DECIMAL_SEPARATOR": "."' in text


def test_every_clock_word_goes_through_gettext():
    source = CLOCK_JS.read_text()
    # The catalog holds the words of every script (clock.js, replay.js, ...), nothing else.
    scripts = "".join(p.read_text() for p in sorted(CLOCK_JS.parent.glob("*.js")))
    marked = set(re.findall(r'gettext\("([^"]+)"\)', scripts))
    marked |= set(re.findall(r'ngettext\("([^"]+)", "[^"]+", ', scripts))  # singular msgids
    catalog = {e.msgid for e in polib.pofile(str(po_path("it", "djangojs")))}
    assert marked == catalog
    # The old data-l-* labels rendered by the template are no longer read.
    assert not re.search(r"\bL\.l[A-Z]", source)


@pytest.mark.parametrize("page", ["battle", "referee clock"])
def test_clock_pages_load_the_catalog_before_clock_js(client, world, page):
    url, user = world.pages[page]
    client.force_login(user)
    html = client.get(url).content.decode()
    catalog = html.index(f'<script src="{reverse("javascript-catalog")}"')
    assert catalog < html.index("js/clock.js")
