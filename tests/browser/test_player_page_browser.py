"""The player's own page in a phone's browser, against a real uvicorn (pages and the hall
screen's stream) and Redis, left open from before round 1 to the close (issue 41).

Three phones at 390 × 844: the player's account page ``/t/<slug>/me/`` in English and in
Norwegian, and the personal link (no login) with notifications granted (a stub records
them). Without a reload, each follows the tournament's live state as the hall screen does:
"Setting up" becomes "Running" with round 1's table and opponent when round 1 is published
(and a browser notification is raised), the offer to notify the next round goes once the
last round is published, and the close shows the final place. In each state no page is
wider than the phone, and axe (the WCAG tags and the structure rules) finds nothing on
either language's. Screenshots:
``test-output/browser/player-page-<state>-<language>-390.png`` and
``player-page-closed-en-1366.png``.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import timezone

from tests.browser.axe import AXE_SCRIPT, describe, scan
from tests.browser.sessions import session_cookie
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.rounds.played import finish
from tournaments.models.tournament import Tournament
from tournaments.organising.personal_links import personal_path
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import close_tournament, publish_round

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
NAMES = ["Agnes Nitt", "Detritus", "Carrot Ironfoundersson", "Angua von Überwald"]

# Every notification shown is recorded in window.shown; the permission is the test's.
NOTIFICATION_STUB = """
window.shown = [];
window.Notification = function (title, options) { window.shown.push([title, options.body]); };
window.Notification.permission = "%s";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
"""
STREAM_OPEN = "document.querySelector('.my-page').dataset.live === '1'"
WIDTH = "document.documentElement.scrollWidth"


def event() -> Tournament:
    t = TournamentFactory(name="Ankh-Morpork Open", status=Tournament.Status.SETUP, rounds=2)
    user = UserFactory(username="detritus")
    for seed, name in enumerate(NAMES, start=1):
        player = PlayerFactory(name=name, user=user if name == "Detritus" else None)
        EntryFactory(tournament=t, seed=seed, player=player, checked_in=True)
    return t


def phone(browser, url: str, *, cookies: list[dict], permission: str, errors: list[str]):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies(cookies)
    context.add_init_script(NOTIFICATION_STUB % permission)
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    page.wait_for_function(STREAM_OPEN, timeout=10_000)
    page.evaluate("window.notReloaded = true")
    return page


def publish_next(t: Tournament) -> None:
    publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())


def test_the_player_page_follows_the_tournament_live_and_fits_a_phone(
    browser, server, monkeypatch, screenshot
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    t = event()
    entry = t.entries.get(player__name="Detritus")
    me = f"{server}/t/{t.slug}/me/"
    login = session_cookie(entry.player.user, server)
    nb = {"name": settings.LANGUAGE_COOKIE_NAME, "value": "nb", "url": server}
    errors: list[str] = []
    en_page = phone(browser, me, cookies=[login], permission="default", errors=errors)
    nb_page = phone(browser, me, cookies=[login, nb], permission="default", errors=errors)
    link_page = phone(
        browser, server + personal_path(entry), cookies=[], permission="granted", errors=errors
    )
    pages = {"en": en_page, "nb": nb_page}
    offer = en_page.get_by_role("button", name="Tell me with a browser notification")

    def looked_at(state: str) -> None:
        for language, page in pages.items():
            assert page.evaluate(WIDTH) <= PHONE["width"], (state, language)
            screenshot(page, f"player-page-{state}-{language}-390")
        assert link_page.evaluate(WIDTH) <= PHONE["width"], state
        for language, page in pages.items():
            violations = scan(page, "player", language, f"/t/<slug>/me/ ({state})")
            assert violations == [], describe(violations)

    # Before round 1: setting up, the offer to be told when round 1 comes.
    expect(en_page.locator("#my-status")).to_contain_text("Setting up")
    expect(en_page.locator("#my-round")).to_contain_text("Waiting for round 1 to be published.")
    expect(offer).to_be_visible()
    looked_at("before")

    # Round 1 published: every page shows it live, the status with it.
    publish_next(t)
    panel = en_page.locator("#my-round")
    expect(en_page.locator("#my-status")).to_contain_text("Running", timeout=10_000)
    expect(panel).to_contain_text("Round 1 · table", timeout=10_000)
    expect(panel).to_contain_text("Opponent")
    expect(panel).to_contain_text("you play dwarfs")
    expect(panel.get_by_role("link", name="All pairings")).to_be_visible()
    expect(en_page.locator("#my-status")).not_to_contain_text("Setting up")
    expect(link_page.locator("#my-round")).to_contain_text("Round 1 · table", timeout=10_000)
    expect(nb_page.locator("#my-round")).to_have_attribute("data-round", "1", timeout=10_000)
    link_page.wait_for_function("window.shown.length > 0", timeout=5_000)
    assert link_page.evaluate("window.shown") == [
        ["Your next round is published", "Round 1 is published: see your table and opponent."]
    ]
    expect(offer).to_be_visible()  # round 2 can come
    looked_at("round-1")

    # The last round published: no round can come after it, so no offer.
    finish(t.round_set.get(number=1))
    publish_next(t)
    expect(panel).to_contain_text("Round 2 · table", timeout=10_000)
    expect(offer).to_have_count(0, timeout=5_000)

    # Closed: the final place, still no offer, and nothing else to follow.
    finish(t.round_set.get(number=2))
    close_tournament(t, now=timezone.now())
    expect(panel).to_contain_text("The tournament is over: your final place is", timeout=10_000)
    expect(en_page.locator("#my-status")).to_contain_text("Finished")
    expect(nb_page.locator("#my-round")).to_have_attribute("data-follow", "0", timeout=10_000)
    for page in (en_page, nb_page, link_page):
        assert page.evaluate("window.notReloaded") is True  # all of it without a reload
    looked_at("closed")
    en_page.reload(wait_until="load")
    expect(offer).to_have_count(0)
    expect(en_page.locator("#my-status")).to_contain_text("Finished")

    en_page.set_viewport_size(LAPTOP)
    assert en_page.evaluate(WIDTH) <= LAPTOP["width"]
    screenshot(en_page, "player-page-closed-en-1366")
    assert errors == []
