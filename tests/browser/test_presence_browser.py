"""Presence before time, in two headless Chromium contexts against a real uvicorn (pages
+ SSE) with a real Celery clock worker and beat.

- A casual challenge: the challenger waits on /play/; the moment the opponent accepts,
  the challenger's page turns into the battle (by the notice, not a reload), both are
  there and the clock runs.
- A tournament match: one player clicks *Play online*; the other, on the home page, is
  told at once (a toast with a Join link). However long only one has joined, no turn is
  forfeited; once the other joins, the clock runs (a turn is forfeited by the server).
Screenshots go to test-output/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import timezone

from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from play import challenges
from play.models import Challenge
from tests.browser.sessions import session_cookie
from tests.factories import UserFactory, make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "test-output"


def page_for(browser, user, server):
    ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    ctx.add_cookies([session_cookie(user, server)])
    return ctx.new_page()


def test_the_challenger_page_turns_into_the_battle_when_accepted(browser, server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    c = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=timezone.now()
    )
    waiting, accepting = page_for(browser, alice, server), page_for(browser, bob, server)
    waiting.goto(f"{server}/play/")
    expect(waiting.locator(f'#made [data-challenge="{c.pk}"]')).to_be_visible()
    expect(waiting.locator("#notices")).to_have_attribute("data-connected", "1")
    navigations = []
    waiting.on("framenavigated", lambda frame: navigations.append(frame.url))
    accepting.goto(f"{server}/play/")
    accepting.locator(f'#received [data-challenge="{c.pk}"]').get_by_role(
        "button", name="Accept"
    ).click()
    battle = Challenge.objects.get(pk=c.pk).battle
    assert battle is not None
    url = f"{server}/battles/{battle.pk}/"
    # Within 2 s of the acceptance, without a reload: the notice took the page there.
    expect(waiting).to_have_url(url, timeout=2_000)
    assert navigations[0] == url and f"{server}/play/" not in navigations
    # Both are on the battle page now: the clock runs, the waiting box is gone.
    expect(waiting.locator("#presence-box")).to_have_count(0, timeout=10_000)
    expect(accepting.locator("#presence-box")).to_have_count(0, timeout=10_000)
    waiting.screenshot(path=str(OUT / "presence-challenger-in-battle.png"))
    b = Battle.objects.get(pk=battle.pk)
    assert b.status == "running" and b.first_joined_at and b.second_joined_at
    assert ClockEvent.objects.filter(battle=b, kind="started").count() == 1


def test_a_tournament_opponent_is_told_and_no_turn_runs_until_both_joined(
    browser, server, monkeypatch
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    match = make_match(
        variant="timed24", think_ms=1500, move_ms=1000, grace_ms=300, max_consecutive_forfeits=9
    )[0]
    a_user, b_user = match.player_a.player.user, match.player_b.player.user
    home, starter = page_for(browser, a_user, server), page_for(browser, b_user, server)
    home.goto(f"{server}/")
    expect(home.locator("#notices")).to_have_attribute("data-connected", "1")
    home.evaluate("window.__stayed = 'yes'")  # survives only if the page is not reloaded
    starter.goto(f"{server}/battles/match/{match.pk}/")
    starter.get_by_role("button", name="Play online").click()
    expect(starter.locator("#presence-status")).to_contain_text("Waiting for your opponent")
    b1 = Battle.objects.get(match=match, number=1)
    # The opponent, on the home page, is told at once: a toast with a Join link.
    toast = home.locator(f'#notices [data-battle="{b1.pk}"]')
    expect(toast).to_contain_text("is here and waiting for you", timeout=2_000)
    join = toast.get_by_role("link", name="Join")
    expect(join).to_have_attribute("href", f"/battles/{b1.pk}/")
    assert home.evaluate("window.__stayed") == "yes"
    home.screenshot(path=str(OUT / "presence-tournament-told-on-home.png"))
    # Several whole turns (2.8 s each) pass with one player there: nothing runs.
    starter.wait_for_timeout(8_000)
    b1.refresh_from_db()
    assert (b1.status, b1.ply, b1.deadline) == ("pending", 0, None)
    assert not Move.objects.filter(battle=b1).exists()
    expect(starter.locator("#claim-no-show")).to_be_visible()
    starter.screenshot(path=str(OUT / "presence-waiting-for-opponent.png"))
    # The opponent joins from the toast: the clock starts, and the server runs it
    # (the first side does not move, so its turn is forfeited).
    join.click()
    expect(home).to_have_url(re.compile(rf"/battles/{b1.pk}/$"))
    expect(starter.locator("#presence-box")).to_have_count(0, timeout=10_000)
    expect(starter.locator("#move-list")).to_contain_text("turn forfeited", timeout=15_000)
    b1.refresh_from_db()
    assert b1.status == "running" and b1.ply >= 1
    assert ClockEvent.objects.filter(battle=b1, kind="started").count() == 1
