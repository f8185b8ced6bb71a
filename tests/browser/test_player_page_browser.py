"""The player's own page in a phone's browser: by the personal link, without logging in.

It is shown at 390 × 844 (and 1366 × 768), must not scroll sideways, has one h1, passes
axe, and when the organiser publishes the next round the panel shows it without a reload
and a browser notification is raised (the visitor granted notifications: a stub records
them). Screenshots: ``test-output/browser/player-page-<width>.png``.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.utils import timezone

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models.tournament import Tournament
from tournaments.organising.personal_links import personal_path
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
NAMES = ["Agnes Nitt", "Detritus", "Carrot Ironfoundersson", "Angua von Überwald"]

# Notification granted, and every one shown recorded in window.shown.
NOTIFICATION_STUB = """
window.shown = [];
window.Notification = function (title, options) { window.shown.push([title, options.body]); };
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
"""


def event() -> Tournament:
    t = TournamentFactory(name="Ankh-Morpork Open", status=Tournament.Status.RUNNING, rounds=3)
    for seed, name in enumerate(NAMES, start=1):
        EntryFactory(tournament=t, seed=seed, player=PlayerFactory(name=name), checked_in=True)
    return t


def axe_violations(page) -> list[str]:
    results = page.evaluate(
        """() => axe.run(document, {runOnly: {type: "tag",
            values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
            resultTypes: ["violations"]})"""
    )
    return [f"{v['id']}: {v['help']}" for v in results["violations"]]


def test_player_page_on_a_phone_shows_the_new_round_live_and_notifies(
    browser, live_server, screenshot
):
    t = event()
    entry = t.entries.get(player__name="Detritus")
    url = live_server.url + personal_path(entry)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(NOTIFICATION_STUB)
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url, wait_until="load")
    assert page.locator("h1").count() == 1
    assert "No round published yet" in page.inner_text("#my-round")
    assert "Waiting for round 1 to be published." in page.inner_text("#my-round")

    publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    page.wait_for_function(
        "document.getElementById('my-round').dataset.round === '1'", timeout=15_000
    )
    panel = page.inner_text("#my-round")
    assert "Round 1" in panel and "table" in panel and "Opponent" in panel
    assert "you play dwarfs" in panel and "you play trolls" in panel
    page.wait_for_function("window.shown.length > 0", timeout=5_000)
    shown = page.evaluate("window.shown")
    assert shown == [
        ["Your next round is published", "Round 1 is published: see your table and opponent."]
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert axe_violations(page) == []
    screenshot(page, "player-page-390")
    assert errors == []

    page.set_viewport_size(LAPTOP)
    page.reload(wait_until="load")
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    screenshot(page, "player-page-1366")
    context.close()
