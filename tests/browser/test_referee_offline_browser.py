"""The referee clock cannot run without its referee (issue 25), with the real parts: a
real uvicorn (pages, beats, SSE), a real Celery clock worker and beat against real Redis,
and Debian's chromium as the referee's phone.

The referee starts an over-the-board battle; the phone goes offline mid-turn
(``context.set_offline(True)``): the page says so at once and disables its buttons, the
server pauses the battle within 5 s and forfeits nothing, even past the turn's deadline;
back online, the page's beat resumes the battle with its turn replayed and the page shows
it running. Screenshots go to test-output/.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.db import connections
from django.test import Client
from django.utils import timezone

from games import clock
from games.battles.starting import create_battles
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from tests.factories import make_match
from tests.processes import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.clock, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "test-output"
RUNNING = re.compile("^(think|move)$")  # the clock panel's phase while the clock runs


def fresh(battle: Battle) -> Battle:
    return Battle.objects.get(pk=battle.pk)


def test_the_battle_pauses_while_the_referee_page_is_offline_and_resumes_when_it_is_back(
    browser, server, monkeypatch
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    # 5 s turns: the deadline falls while the page is offline.
    match = make_match(think_ms=2_500, move_ms=2_500, grace_ms=300)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    referee = match.round.tournament.referees.get()
    client = Client()
    client.force_login(referee)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server}]
    )
    page = context.new_page()
    page.goto(f"{server}/battles/referee/{b1.pk}/")
    link = page.locator("#referee-link")
    expect(link).to_have_attribute("data-state", "connected")
    page.get_by_role("button", name="Start the clock").click()
    expect(page.locator("#clock-panel")).to_have_attribute("data-phase", RUNNING)
    wait_for(lambda: fresh(b1).referee_seen_at is not None, timeout=5, what="a beat")
    page.get_by_role("button", name="Moved").click()  # a fresh 5 s turn, ply 1
    wait_for(lambda: fresh(b1).ply == 1, timeout=5, what="the move")
    page.wait_for_timeout(500)
    running = fresh(b1)
    assert running.status == clock.RUNNING and running.deadline is not None

    context.set_offline(True)
    went_offline = time.monotonic()
    expect(link).to_have_attribute("data-state", "offline", timeout=3_000)
    expect(link).to_contain_text("the battle pauses when this page is offline")
    expect(page.locator("#moved")).to_be_disabled()
    wait_for(
        lambda: fresh(b1).paused_reason == clock.REASON_REFEREE_OFFLINE,
        timeout=5,
        interval=0.05,
        what="the pause for the offline referee page",
    )
    paused_after = time.monotonic() - went_offline
    page.screenshot(path=str(OUT / "referee-offline.png"), full_page=True)
    # Offline well past the turn's deadline (+ grace): nothing is forfeited.
    deadline_passed = (running.deadline - timezone.now()).total_seconds() + 2
    page.wait_for_timeout(max(deadline_passed, 0) * 1000)
    paused = fresh(b1)
    assert (paused.status, paused.ply) == (clock.PAUSED, 1)
    assert not Move.objects.filter(battle=b1, kind=Move.Kind.FORFEIT).exists()

    context.set_offline(False)
    came_back = time.monotonic()
    wait_for(lambda: fresh(b1).status == clock.RUNNING, timeout=10, what="the resume")
    resumed_after = time.monotonic() - came_back
    expect(link).to_have_attribute("data-state", "connected")
    expect(page.locator("#clock-panel")).to_have_attribute("data-phase", RUNNING)
    expect(page.locator("#moved")).to_be_enabled()
    page.screenshot(path=str(OUT / "referee-back-online.png"), full_page=True)
    back = fresh(b1)
    assert back.ply == 1 and back.paused_reason == ""
    event = ClockEvent.objects.get(battle=b1, kind=ClockEvent.Kind.RESUMED)
    assert event.detail == f"referee page back: {referee.username}"
    # The page drives the clock again.
    page.get_by_role("button", name="Moved").click()
    wait_for(lambda: fresh(b1).ply == 2, timeout=15, what="a move after the resume")
    assert not Move.objects.filter(battle=b1, kind=Move.Kind.FORFEIT).exists()
    print(f"paused {paused_after:.2f} s after going offline; resumed {resumed_after:.2f} s after")
    # The ORM calls made while Playwright's loop ran used their own connection context.
    connections.close_all()
