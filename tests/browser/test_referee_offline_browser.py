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

from games.battles.starting import create_battles
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from tests.browser.axe import AXE_SCRIPT, describe, scan
from tests.factories import make_match
from tests.processes import wait_for
from tournaments.models.people import Player

pytestmark = [pytest.mark.browser, pytest.mark.clock, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "test-output"
RUNNING = re.compile("^(think|move)$")  # the clock panel's phase while the clock runs
AWAY = re.compile(
    r"The clock was paused while this page was away \(from \d\d:\d\d:\d\d for \d+ s\)\."
)


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
    # It says the battle stood still meanwhile (from the clock's events), until a press.
    expect(page.locator("#away-notice")).to_contain_text(AWAY)
    page.screenshot(path=str(OUT / "referee-back-online.png"), full_page=True)
    back = fresh(b1)
    assert back.ply == 1 and back.paused_reason == ""
    event = ClockEvent.objects.get(battle=b1, kind=ClockEvent.Kind.RESUMED)
    assert event.detail == f"referee page back: {referee.username}"
    # The page drives the clock again.
    page.get_by_role("button", name="Moved").click()
    wait_for(lambda: fresh(b1).ply == 2, timeout=15, what="a move after the resume")
    expect(page.locator("#away-notice")).to_have_count(0)
    assert not Move.objects.filter(battle=b1, kind=Move.Kind.FORFEIT).exists()
    print(f"paused {paused_after:.2f} s after going offline; resumed {resumed_after:.2f} s after")
    # The ORM calls made while Playwright's loop ran used their own connection context.
    connections.close_all()


def test_the_referee_clock_names_who_moves_and_tells_a_forfeit_and_a_sleep(browser, server):
    """Issue 41, with the same real parts: battle 2 offers no start while battle 1 runs;
    the clock names the player to move with their side; its figure is the same kind
    running and paused; the clock worker's forfeit is shown and read out; a page frozen
    (as a sleeping phone's: no script runs, no beat) comes back saying the battle was
    paused meanwhile, until dismissed. Screenshots at 390 and 1366 px in
    test-output/referee/."""
    from playwright.sync_api import expect

    shots = OUT / "referee"
    shots.mkdir(parents=True, exist_ok=True)
    match = make_match(think_ms=3_000, move_ms=2_000, grace_ms=300)[0]
    Player.objects.filter(pk=match.player_a.player_id).update(name="Agnes Nitt")
    Player.objects.filter(pk=match.player_b.player_id).update(name="Nanny Ogg")
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    client = Client()
    client.force_login(match.round.tournament.referees.get())
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server}]
    )
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    page.goto(f"{server}/battles/referee/{b1.pk}/")
    page.get_by_role("button", name="Start the clock").click()
    panel = page.locator("#clock-panel")
    label, figure = panel.locator("[data-role=label]"), panel.locator("[data-role=time]")
    expect(panel).to_have_attribute("data-phase", RUNNING)
    expect(panel.locator("[data-role=info]")).to_have_text("Move 1 of 24: Agnes Nitt (Dwarfs)")
    expect(label).to_have_text("Think")
    expect(figure).to_have_text(re.compile(r"^[1-3]$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "referee-clock-390.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.screenshot(path=str(shots / "referee-clock-1366.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})

    # Battle 2's page, in another tab: no start while battle 1 runs.
    other = context.new_page()
    other.goto(f"{server}/battles/referee/{b2.pk}/")
    expect(other.locator("#waits-for")).to_contain_text("Battle 1 is still being played")
    expect(other.locator("#start")).to_have_count(0)
    other.close()

    page.get_by_role("button", name="Pause").click()
    expect(label).to_have_text("Paused (think)")
    expect(figure).to_have_text(re.compile(r"^[1-3]$"))
    page.get_by_role("button", name="Resume").click()
    expect(panel).to_have_attribute("data-phase", RUNNING)

    # The referee starts typing why the battle should end; the panel is redrawn under
    # the words (the forfeit below), which stay, with the focus.
    page.fill("#decide-reason", "Dispute at table 3")
    page.evaluate("document.getElementById('referee-panel').dataset.drawnBefore = '1'")

    # Nobody presses: the clock worker forfeits the turn, and the page says so aloud.
    told = "Time ran out: Agnes Nitt (Dwarfs) forfeits the turn."
    expect(page.locator(".clock-news").first).to_have_text(told, timeout=10_000)
    expect(page.locator("#announcer")).to_have_text(told)
    assert fresh(b1).ply == 1
    page.wait_for_function("!document.getElementById('referee-panel').dataset.drawnBefore")
    expect(page.locator("#decide-reason")).to_have_value("Dispute at table 3")
    expect(page.locator("#decide-reason")).to_be_focused()
    page.fill("#decide-reason", "")

    # Every announcement from here on is kept: under load the clock may forfeit another
    # turn after the page comes back, and that one replaces the live region's text.
    page.evaluate(
        """() => { window.announced = [];
        new MutationObserver(() => {
            const text = document.querySelector('#announcer')?.textContent || '';
            if (text !== window.announced.at(-1)) window.announced.push(text);
        }).observe(document.body, {childList: true, characterData: true, subtree: true}); }"""
    )
    # The phone sleeps: the page is frozen (no script runs, no beat), the battle pauses.
    cdp = context.new_cdp_session(page)
    cdp.send("Debugger.enable")
    cdp.send("Debugger.pause")
    wait_for(
        lambda: fresh(b1).paused_reason == clock.REASON_REFEREE_OFFLINE,
        timeout=8,
        interval=0.05,
        what="the pause while the page sleeps",
    )
    cdp.send("Debugger.resume")
    away = page.locator("#away-notice")
    expect(away).to_contain_text(AWAY, timeout=10_000)
    expect(panel).to_have_attribute("data-phase", RUNNING)
    assert fresh(b1).status == clock.RUNNING
    # Read out once the region has been emptied and refilled (referee_clock.js, 50 ms on).
    page.wait_for_function(
        "pattern => window.announced.some(text => new RegExp(pattern).test(text))",
        arg=AWAY.pattern,
        timeout=5_000,
    )
    violations = scan(page, "referee", "en", page.url)
    assert not violations, describe(violations)
    page.screenshot(path=str(shots / "referee-clock-back-390.png"), full_page=True)

    page.get_by_role("button", name="Dismiss").click()
    expect(away).to_have_count(0)
    page.reload()  # drawn again by the server: dismissed stays dismissed
    expect(panel).to_be_visible()
    expect(away).to_have_count(0)
    connections.close_all()
