"""axe-core finds no violation on the battle page of either game, for the player to move
with a piece selected (targets on the board) and for the waiting player, in the light
and the dark theme, at 1366×768 and 390×844. Screenshots: test-output/battle-axe-*.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.urls import reverse
from django.utils import timezone

from games.battles.play import touch
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.browser.axe import EMPTY_STREAM, Violation, describe, scan
from tests.browser.test_capture_choice_browser import cavalli_battle, troll_to_move
from tests.factories import make_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

OUT = Path(__file__).resolve().parents[2] / "test-output"
VIEWPORTS = [{"width": 1366, "height": 768}, {"width": 390, "height": 844}]


def battle_of(game: str) -> Battle:
    """A timed battle in play; Thud's first side has touched a piece (targets shown)."""
    match = make_match(variant="timed24", game=game, think_ms=600_000, move_ms=600_000)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=timezone.now())
    if game == "thud":
        battle = touch(
            battle.pk, side="dwarf", version=battle.clock_version, square="F1", now=timezone.now()
        )
    return battle


@pytest.mark.parametrize("game", ["thud", "cavalli"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_on_the_battle_page(browser, live_server, log_in, game, scheme):
    battle = battle_of(game)
    found: list[Violation] = []
    for who, entry in (("mover", battle.first_entry), ("waiting", battle.second_entry)):
        context = browser.new_context(color_scheme=scheme, viewport=VIEWPORTS[0])
        context.add_init_script(AXE_SCRIPT)
        context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
        log_in(context, entry.player.user.username)
        page = context.new_page()
        path = reverse("games:battle", args=[battle.pk])
        page.goto(live_server.url + path)
        page.wait_for_selector(".clock-face")
        for viewport in VIEWPORTS:
            page.set_viewport_size(viewport)
            page.wait_for_timeout(150)  # the clock redraws every 100 ms
            found += scan(page, who, scheme, path)
            OUT.mkdir(exist_ok=True)
            name = f"battle-axe-{game}-{who}-{scheme}-{viewport['width']}x{viewport['height']}"
            page.screenshot(path=str(OUT / f"{name}.png"))
        context.close()
    assert not found, describe(found)


@pytest.mark.parametrize("game", ["thud", "cavalli"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_on_a_pending_choice_on_the_board(
    browser, live_server, log_in, game, scheme
):
    """The choice step (issue 42): its options are inputs on the board's squares, its
    confirm bar above the board."""
    battle = troll_to_move() if game == "thud" else cavalli_battle()
    user = battle.second_user if game == "thud" else battle.first_user
    query = "?sq=F6&to=F5" if game == "thud" else "?to=A1"
    context = browser.new_context(color_scheme=scheme, viewport=VIEWPORTS[0])
    context.add_init_script(AXE_SCRIPT)
    context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
    log_in(context, user.username)
    page = context.new_page()
    path = reverse("games:battle", args=[battle.pk]) + query
    page.goto(live_server.url + path)
    page.wait_for_selector("#capture-form")
    found: list[Violation] = []
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        found += scan(page, "chooser", scheme, path)
        name = f"battle-axe-choice-{game}-{scheme}-{viewport['width']}x{viewport['height']}"
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / f"{name}.png"))
    context.close()
    assert not found, describe(found)
