"""On a phone, a visitor switches language with the switcher in the navigation, and the
clock page's live words (drawn by clock.js from the JavaScript catalog) follow.

"""

from __future__ import annotations

import re

import polib
import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.factories import make_match
from tests.i18n.support import language_params, po_path

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

PHONE = {"width": 360, "height": 740}
WAIT_MS = 20_000


def clock_words(language: str) -> dict[str, str]:
    """The catalog's translation of each clock word (each must differ from English)."""
    words = {e.msgid: e.msgstr for e in polib.pofile(str(po_path(language, "djangojs")))}
    for msgid in ("Not started", "Move %(n)s of %(limit)s (%(side)s)"):
        assert words[msgid] and words[msgid] != msgid, f"{language}: {msgid!r} untranslated"
    return words


@pytest.mark.parametrize("language", language_params())
def test_switching_language_on_a_phone_translates_the_live_clock(
    browser, live_server, screenshot, language
):
    words = clock_words(language)
    match = make_match(variant="timed24")[0]
    battle, _second = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    page = context.new_page()
    # The live stream needs the ASGI server; the clock draws its first state from the page.
    page.route(re.compile(r".*/events/$"), lambda route: route.abort())
    page.goto(live_server.url + reverse("home"))
    assert page.evaluate("document.documentElement.lang") == "en"

    page.click(f"form.language-switcher button[value={language}]")
    page.wait_for_function(f"document.documentElement.lang === '{language}'", timeout=WAIT_MS)
    assert page.get_attribute(f"button[value={language}]", "aria-pressed") == "true"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.goto(live_server.url + reverse("games:battle", args=[battle.pk]))
    label = page.locator("#clock-panel [data-role=label]")
    info = page.locator("#clock-panel [data-role=info]")
    page.wait_for_function(
        "document.querySelector('#clock-panel [data-role=label]').textContent"
        f" === {words['Not started']!r}",
        timeout=WAIT_MS,
    )
    # A timed 24-move battle before its first move: "Move 1 of 24 (Dwarfs)", in words.
    side = {e.msgid: e.msgstr for e in polib.pofile(str(po_path(language, "django")))}["Dwarfs"]
    assert side and side != "Dwarfs"
    expected = words["Move %(n)s of %(limit)s (%(side)s)"] % {"n": 1, "limit": 24, "side": side}
    assert info.inner_text().strip() == expected
    assert label.inner_text() != "Not started"
    screenshot(page, f"language-{language}-clock-phone")
    context.close()
