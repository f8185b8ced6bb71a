"""A player plays the computer from ``/`` by clicks and then has the battle analysed, with
real processes: uvicorn (pages and SSE), a Celery bots worker and an analysis worker (the
Procfile's options), the clock worker and beat, a real Redis.

The player opens Play, chooses Thud, level 2, the Dwarfs, the quickfire clock and 24 moves
each (48 plies), plays two moves on the board; each of the computer's replies arrives over
SSE. The battle ends
at its move limit (cut to four plies here); *Replay and analysis* leads to the replay
page, where *Analyse* queues the analysis on the analysis queue and the page shows the graph
once the worker is done. axe-core finds no violation on the battle page or the analysis,
in English and Norwegian, at 390 and 1366 px. Screenshots: ``test-output/screens/
computer-battle-*.png`` and ``analysis-*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.conf import settings
from django.test import Client

from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from games.models.history import Move
from tests.browser.axe import Violation, describe, scan
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.clock,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

SCREENS = Path(__file__).resolve().parents[2] / "test-output" / "screens"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PLIES = 4
WAIT_MS = 30_000


def a_step(battle_id: int) -> tuple[str, str]:
    """The squares of a legal move without a capture for the side to move."""
    battle = Battle.objects.get(pk=battle_id)
    rules = battle.rules
    notation = next(m for m in rules.legal_moves(rules.deserialise(battle.board)) if " x" not in m)
    frm, to = notation.split(" ")[1].split("-")
    return frm, to


def shoot(page, name: str, found: list[Violation], language: str, path: str) -> None:
    """Screenshots and axe at both widths (the phone's first)."""
    for viewport in (PHONE, LAPTOP):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)  # a running clock redraws every 100 ms
        page.screenshot(
            path=str(SCREENS / f"{name}-{language}-{viewport['width']}.png"), full_page=True
        )
        found += scan(page, "player", language, path)


def test_a_player_plays_the_computer_by_clicks_and_has_the_battle_analysed(
    analysis_server, browser
):
    from playwright.sync_api import expect

    SCREENS.mkdir(parents=True, exist_ok=True)
    base = analysis_server
    player = UserFactory(username="mira")
    client = Client()
    client.force_login(player)
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}
    found: list[Violation] = []

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies([cookie])
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    page.goto(base + "/")
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("link", name="Play", exact=True).click()
    form = page.locator("#play-computer")
    form.get_by_role("radio", name="Thud", exact=True).check()
    form.get_by_role("radio", name="2", exact=True).check()
    form.get_by_role("radio", name="Dwarfs", exact=True).check()  # the side by its name
    form.get_by_role("radio", name="Quickfire: 15 s", exact=False).check()
    form.get_by_role("radio", name="24 moves each", exact=True).check()
    form.get_by_role("button", name="Play").click()
    expect(page.locator("#clock-panel")).to_be_visible(timeout=WAIT_MS)
    battle = Battle.objects.get(first_user=player, bot_level=2)
    assert (battle.bot_side, battle.timed, battle.max_plies) == ("troll", True, 48)
    Battle.objects.filter(pk=battle.pk).update(max_plies=PLIES)  # before the first move

    moves = page.locator("#move-list li")
    for number in range(PLIES // 2):
        frm, to = a_step(battle.pk)
        page.locator(f"button.selectable[data-square={frm}]").click(timeout=WAIT_MS)
        page.locator(f"button.target[data-square={to}]").click(timeout=WAIT_MS)
        expect(moves).to_have_count(2 * number + 2, timeout=WAIT_MS)  # the reply, over SSE
        if number == 0:
            path = f"/battles/{battle.pk}/"
            shoot(page, "computer-battle", found, "en", path)
            page.set_viewport_size(PHONE)
    expect(page.locator("#board-panel")).to_contain_text("Finished", timeout=WAIT_MS)

    page.get_by_role("link", name="Replay and analysis").click()
    page.get_by_role("button", name="Analyse").click()
    expect(page.locator("#analysis-wait")).to_be_visible()
    # htmx looks every few seconds and reloads the page once the worker is done.
    expect(page.locator("#analysis figure svg")).to_be_visible(timeout=90_000)
    path = f"/battles/{battle.pk}/replay/"
    shoot(page, "analysis", found, "en", path)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "nb", "url": base}])
    page.reload()
    assert page.evaluate("document.documentElement.lang") == "nb"
    expect(page.locator("h1")).to_contain_text("Datamaskinen, nivå 2")
    expect(page.locator("#analysis figure svg")).to_be_visible()
    shoot(page, "analysis", found, "nb", path)
    context.close()

    done = Battle.objects.get(pk=battle.pk)
    assert (done.status, done.finished_reason, done.ply) == ("finished", "move_limit", PLIES)
    sides = list(Move.objects.filter(battle=done).order_by("ply").values_list("side", flat=True))
    assert sides == ["dwarf", "troll", "dwarf", "troll"]  # no forfeit: the computer moved
    analysis = BattleAnalysis.objects.get(battle=done)
    assert analysis.status == BattleAnalysis.Status.DONE
    assert not found, describe(found)
