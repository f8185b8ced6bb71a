"""The online board in headless Chromium: it fits a 360 px phone without sideways scrolling,
shows the octagon of 165 squares with the Thudstone in the middle, marks the last move and
its capture, and a tap on a piece shows where it may go.

Screenshots for a human to look at: test-output/board-phone.png, board-phone-touched.png,
board-desktop.png and board-diagram-print.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.battles.play import submit_move
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import make_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

OUT = Path(__file__).resolve().parents[2] / "test-output"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
WAIT_MS = 20_000


def session_cookie(user, base: str) -> dict:
    c = Client()
    c.force_login(user)
    return {"name": "sessionid", "value": c.cookies["sessionid"].value, "url": base}


@pytest.fixture
def battle_after_a_capture(db) -> Battle:
    """An untimed online battle where the trolls just took a dwarf: dwarfs to move."""
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=timezone.now())
    battle = submit_move(
        battle.pk,
        side="dwarf",
        version=battle.clock_version,
        notation="d F1-F6",
        now=timezone.now(),
    )
    return submit_move(
        battle.pk,
        side="troll",
        version=battle.clock_version,
        notation="T G7-F7 xF6",
        now=timezone.now(),
    )


def open_board(browser, base: str, battle: Battle, viewport: dict, **options):
    context = browser.new_context(viewport=viewport, **options)
    # The live stream is not under test here (the WSGI live server cannot serve it).
    context.route("**/events/", lambda route: route.abort())
    context.add_cookies([session_cookie(battle.first_entry.player.user, base)])
    page = context.new_page()
    page.goto(base + reverse("games:battle", args=[battle.pk]))
    page.wait_for_selector(".thud-board", timeout=WAIT_MS)
    return page


def test_board_fits_a_phone_and_shows_the_last_capture(
    browser, live_server, battle_after_a_capture
):
    battle = battle_after_a_capture
    OUT.mkdir(exist_ok=True)

    desktop = open_board(browser, live_server.url, battle, DESKTOP)
    assert desktop.locator(".thud-board .sq:not(.off)").count() == 165
    assert desktop.locator(".thud-board .label.file.far").first.is_visible()
    desktop.screenshot(path=str(OUT / "board-desktop.png"), full_page=True)
    # The printable diagram draws the same board, read-only.
    desktop.goto(live_server.url + reverse("games:diagram", args=[battle.pk]))
    desktop.emulate_media(media="print")
    assert desktop.locator(".thud-board .sq:not(.off)").count() == 165
    assert desktop.locator(".thud-board button").count() == 0
    desktop.screenshot(path=str(OUT / "board-diagram-print.png"), full_page=True)

    phone = open_board(browser, live_server.url, battle, PHONE, is_mobile=True, has_touch=True)
    assert (
        phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    )  # not innerWidth: it grows with overflow
    board = phone.locator(".thud-board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    stone = phone.locator('.thud-board [data-square="H8"]')
    assert stone.locator("use").get_attribute("href") == "#thudstone"
    square = stone.bounding_box()
    assert square["width"] >= 20  # a tap target, not a speck
    # The stone is the centre of the octagon: as far from A8 as from P8.
    left = phone.locator('.thud-board [data-square="A8"]').bounding_box()
    right = phone.locator('.thud-board [data-square="P8"]').bounding_box()
    assert abs((square["x"] - left["x"]) - (right["x"] - square["x"])) < 1
    # Last move T G7-F7 xF6: both ends and the captured square marked.
    assert "last-from" in phone.locator('[data-square="G7"]').get_attribute("class")
    assert "last-to" in phone.locator('[data-square="F7"]').get_attribute("class")
    assert "captured" in phone.locator('[data-square="F6"]').get_attribute("class")
    phone.screenshot(path=str(OUT / "board-phone.png"), full_page=True)

    # Tap a dwarf: the board comes back (htmx) with its targets as buttons.
    phone.locator('button.selectable[data-square="G1"]').tap()
    phone.wait_for_selector('button.target[data-square="G6"]', timeout=WAIT_MS)
    assert phone.locator('button.target[data-square="G6"]').get_attribute("aria-label") == (
        "G6, legal move"
    )
    assert (
        phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    )  # not innerWidth: it grows with overflow
    phone.screenshot(path=str(OUT / "board-phone-touched.png"), full_page=True)


def test_a_refused_move_shows_its_message_on_the_board(
    browser, live_server, battle_after_a_capture
):
    # The move answers 409 (the battle changed meanwhile): htmx 2 swaps no 4xx answer
    # unless base.html's htmx-config says so, and then the player would see nothing.
    battle = battle_after_a_capture
    page = open_board(browser, live_server.url, battle, DESKTOP)
    page.locator('button.selectable[data-square="G1"]').click()
    page.wait_for_selector('button.target[data-square="G6"]', timeout=WAIT_MS)
    before = Battle.objects.get(pk=battle.pk)
    # Someone else changes the battle behind the page's back (the live stream is cut here).
    Battle.objects.filter(pk=battle.pk).update(clock_version=F("clock_version") + 1)
    with page.expect_response(lambda r: r.url.endswith("/move/")) as answer:
        page.locator('button.target[data-square="G6"]').click()
    assert answer.value.status == 409
    error = page.locator("#board-panel .error-box")
    error.wait_for(timeout=WAIT_MS)
    assert "changed meanwhile" in error.inner_text()
    after = Battle.objects.get(pk=battle.pk)
    assert (after.ply, after.touched_square) == (before.ply, before.touched_square)
    page.screenshot(path=str(OUT / "board-refused-move.png"), full_page=True)
