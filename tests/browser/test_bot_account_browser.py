"""Becoming a bot account in a browser (issue 45): the settings page's button asks in the
site's dialog what it will do, the yes turns the account into a bot account; the page
before and after, and /play/ with a bot's challenge and its BOT mark, pass axe at a phone's
and a laptop's width. Screenshots: ``test-output/browser/bot-account-*.png``."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import UserProfile
from play import challenges
from tests.browser.axe import AXE_SCRIPT, describe, scan
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

VIEWPORTS = [{"width": 390, "height": 844}, {"width": 1366, "height": 768}]
WAIT_MS = 20_000


def checked(page, path: str, name: str, screenshot) -> list:
    found = []
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        screenshot(page, f"bot-account-{name}-{viewport['width']}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{path} scrolls sideways at {width}"
        found += scan(page, "player", "en", path)
    return found


def test_the_button_asks_then_makes_a_bot_whose_challenge_shows_the_mark(
    browser, live_server, log_in, screenshot
):
    UserFactory(username="robo")
    ann = UserFactory(username="ann")
    context = browser.new_context()
    context.add_init_script(AXE_SCRIPT)
    log_in(context, "robo")
    page = context.new_page()
    path = reverse("play:settings")
    page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
    violations = checked(page, path, "before", screenshot)

    page.get_by_role("button", name="Make this a bot account").click()
    dialog = page.locator("#confirm-dialog")
    assert "bot account for good" in dialog.inner_text()
    page.locator("#confirm-dialog-ok").click()
    page.wait_for_selector("#bot-account-status", timeout=WAIT_MS)
    assert UserProfile.objects.get(user__username="robo").is_bot
    violations += checked(page, path, "after", screenshot)

    robo = UserProfile.objects.get(user__username="robo").user
    challenges.create_challenge(
        by=robo, opponent=ann, game="thud", timing="quickfire", now=timezone.now()
    )
    context.close()
    context = browser.new_context()
    context.add_init_script(AXE_SCRIPT)
    log_in(context, "ann")
    page = context.new_page()
    start = reverse("play:start")
    page.goto(live_server.url + start, wait_until="load", timeout=WAIT_MS)
    mark = page.locator("li.challenge abbr.bot-mark")
    assert mark.inner_text() == "BOT"
    assert mark.get_attribute("title") == "A program plays this account"
    violations += checked(page, start, "challenge", screenshot)
    assert not violations, describe(violations)
