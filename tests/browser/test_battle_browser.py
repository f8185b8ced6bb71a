"""Two players and a spectator in headless Chromium play a timed online battle served by
a real uvicorn (pages + SSE), with a real Celery worker and beat enforcing the clock.

Covers: touch then move, a troll choosing which dwarfs to capture, a forfeited turn,
the spectator seeing moves and the clock live, battle 2 starting after battle 1.
Screenshots go to test-output/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone

from games.battles.referee import pause, resume
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.models.history import Move
from tests.browser.sessions import session_cookie
from tests.factories import make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "test-output"


def diagram(pieces: dict[tuple[int, int], str], side: str) -> str:
    rows = []
    for r in range(15):
        row = ""
        for c in range(15):
            if abs(r - 7) + abs(c - 7) > 9:
                row += " "
            else:
                row += "R" if (r, c) == (7, 7) else pieces.get((r, c), ".")
        rows.append(row)
    return "\n".join(rows) + f"\n{side}\n"


def test_two_players_and_a_spectator_play_a_timed_online_battle(browser, server, monkeypatch):
    # Playwright's sync API runs an event loop in this thread; our ORM calls are sync.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    match = make_match(
        variant="timed24",
        move_unit="ply",
        think_ms=5000,
        move_ms=3000,
        grace_ms=300,
        max_consecutive_forfeits=3,
    )[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    Battle.objects.filter(pk=b1.pk).update(max_plies=4)
    start_battle(b1.pk, now=timezone.now())
    Battle.objects.filter(pk=b1.pk).update(
        board=diagram({(5, 5): "T", (3, 4): "d", (3, 6): "d", (0, 5): "d"}, "dwarf"),
        first_count=3,
        second_count=1,
    )
    pause(b1.pk, now=timezone.now())  # until every page is open
    url = f"{server}/battles/{b1.pk}/"

    pages = {}
    for who, user in (
        ("dwarf", match.player_a.player.user),
        ("troll", match.player_b.player.user),
        ("spectator", None),
    ):
        ctx = browser.new_context(viewport={"width": 420, "height": 900})
        if user is not None:
            ctx.add_cookies([session_cookie(user, server)])
        page = ctx.new_page()
        page.goto(url)
        expect(page.locator("#clock-panel")).to_be_visible()
        pages[who] = page
    dwarf, troll, spec = pages["dwarf"], pages["troll"], pages["spectator"]
    for page in pages.values():  # SSE connected: the paused snapshot has arrived
        expect(page.locator("#clock-panel")).to_have_attribute("data-phase", "paused")
    resume(b1.pk, now=timezone.now())

    # Dwarfs: touch F1, then move to F2.
    dwarf.locator("button.selectable[data-square=F1]").click(timeout=10_000)
    dwarf.locator("button.target[data-square=F2]").click(timeout=10_000)
    expect(spec.locator("#move-list")).to_contain_text("d F1-F2", timeout=10_000)
    dwarf.screenshot(path=str(OUT / "battle-dwarf-moved.png"))

    # Trolls: F6 to F5 lands next to E4 and G4; capture only G4.
    troll.locator("button.selectable[data-square=F6]").click(timeout=10_000)
    troll.locator("button.target[data-square=F5]").click(timeout=10_000)
    troll.locator("input[name=captures][value=E4]").uncheck(timeout=10_000)
    troll.screenshot(path=str(OUT / "battle-troll-capture-choice.png"))
    troll.locator("#confirm-capture").click()
    expect(spec.locator("#move-list")).to_contain_text("T F6-F5 xG4", timeout=10_000)
    # The dwarfs' screen reader hears the move and, on its own, what it captured.
    expect(dwarf.locator("#announcer")).to_have_text(
        re.compile(r"played T F6-F5 xG4\. 1 piece captured\."), timeout=10_000
    )

    # Dwarfs do nothing: the spectator's clock counts down into MOVE NOW, then the
    # server forfeits the turn.
    expect(spec.locator("#clock-panel")).to_have_attribute("data-phase", "think", timeout=10_000)
    expect(spec.locator("#clock-panel")).to_have_attribute("data-phase", "move", timeout=10_000)
    spec.screenshot(path=str(OUT / "battle-spectator-move-now.png"))
    expect(spec.locator("#move-list")).to_contain_text("turn forfeited", timeout=20_000)

    # Trolls: F5 to G5 (no dwarf adjacent) is the last ply of the limit. Their board
    # must show the forfeit first, or the click lands on a stale board.
    expect(troll.locator("#move-list")).to_contain_text("turn forfeited", timeout=20_000)
    troll.locator("button.selectable[data-square=F5]").click(timeout=10_000)
    troll.locator("button.target[data-square=G5]").click(timeout=10_000)
    expect(spec.locator("#board-panel")).to_contain_text("Finished", timeout=10_000)
    spec.screenshot(path=str(OUT / "battle-spectator-finished.png"))
    # ORM calls made while Playwright's loop runs use their own connection context:
    # close it here, or it outlives the test and blocks dropping the test database.
    connections.close_all()

    kinds = list(Move.objects.filter(battle_id=b1.pk).values_list("kind", flat=True))
    assert kinds == ["move", "step", "forfeit", "step"]
    b1 = Battle.objects.get(pk=b1.pk)
    assert (b1.status, b1.finished_reason, b1.first_count) == ("finished", "move_limit", 2)
    b2 = Battle.objects.get(match=match, number=2)
    assert (b2.status, b2.awaits_players, b2.first_entry) == ("pending", True, match.player_b)


def test_a_panel_swapped_in_stale_catches_up_with_an_event_it_missed(browser, server, monkeypatch):
    """htmx drops a panel's trigger while its previous request is in flight. Hold the
    spectator's refetch after one change, make a second change meanwhile, then let the
    stale response land: the page must fetch again rather than stay one state behind."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    match = make_match(variant="timed24", move_unit="ply", think_ms=60_000, move_ms=60_000)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    pause(b1.pk, now=timezone.now())
    url = f"{server}/battles/{b1.pk}/"

    spec = browser.new_context(viewport={"width": 360, "height": 800}).new_page()
    spec.goto(url)
    expect(spec.locator("#clock-panel")).to_have_attribute("data-phase", "paused")
    first = spec.locator("#board-panel").get_attribute("data-version")

    held = []

    def hold(route):  # answer now, deliver later: the response is the older state
        if route.request.headers.get("hx-request") and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    spec.route(url, hold)
    resume(b1.pk, now=timezone.now())
    for _ in range(100):
        if held:
            break
        spec.wait_for_timeout(100)
    assert len(held) == 1, "the spectator's panel did not refetch after the first change"
    pause(b1.pk, now=timezone.now())
    expect(spec.locator("#clock-panel")).to_have_attribute("data-phase", "paused")
    route, response = held[0]
    route.fulfill(response=response)

    latest = str(Battle.objects.get(pk=b1.pk).clock_version)
    assert int(latest) > int(first) + 1
    expect(spec.locator("#board-panel")).to_have_attribute("data-version", latest, timeout=10_000)
    connections.close_all()
