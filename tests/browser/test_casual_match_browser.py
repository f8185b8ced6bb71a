"""A rated casual match in the browser: the challenge form's option is reached and ticked
by keyboard alone, and the pages that name the match (the form, "your games", a finished
battle 2 with the match's result) pass axe and do not scroll sideways on a phone or a
laptop, in every language."""

from __future__ import annotations

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from tests.browser.axe import EMPTY_STREAM, scan
from tests.browser.keyboard import tab_to
from tests.play.test_matches import play_to_end, rated_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [{"width": 360, "height": 740}, {"width": 1366, "height": 768}]


def test_the_rated_match_pages_by_keyboard_axe_and_width(browser, live_server, log_in):
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    play_to_end(m.battle_2_id, now=t0, dwarves_lost=1)
    paths = [
        reverse("play:start"),
        reverse("play:games"),
        reverse("games:battle", args=[m.battle_2_id]),
    ]
    violations = []
    for code, _name in settings.LANGUAGES:
        context = browser.new_context(viewport=WIDTHS[0])
        log_in(context, "alice")
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": code, "url": live_server.url}]
        )
        context.add_init_script(AXE_SCRIPT)
        context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
        page = context.new_page()
        for path in paths:
            page.goto(live_server.url + path, wait_until="load")
            for size in WIDTHS:
                page.set_viewport_size(size)
                violations += scan(page, "alice", code, path)
                scroll = page.evaluate("document.documentElement.scrollWidth")
                assert scroll <= size["width"], (code, path, size)
        context.close()
    assert violations == []

    page = browser.new_context(viewport=WIDTHS[0]).new_page()
    log_in(page.context, "alice")
    page.goto(live_server.url + reverse("play:start"), wait_until="load")
    box = page.locator("input[name=rated_match]")
    tab_to(page, box, max_presses=80)
    page.keyboard.press("Space")
    assert box.is_checked()
    page.context.close()
