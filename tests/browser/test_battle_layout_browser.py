"""The battle page fits: at 1366×768 and 1920×1080 the whole board, both clocks, the move
list and the controls are inside the viewport without scrolling; on a 390 px phone the
board takes the full width, the clocks and the board are on screen together at the top, and
the clocks never cover the board when the page scrolls (they were sticky and covered half
of it: issue 42).

Screenshots to look at: test-output/battle-1366x768.png, battle-390x844.png (both
themes), battle-1920x1080.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
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
WAIT_MS = 20_000


@pytest.fixture
def battle_in_play(db) -> Battle:
    """A quickfire battle in play, two moves made, the first side to move (long think
    time: the layout is under test, not the clock)."""
    match = make_match(variant="timed24", think_ms=600_000, move_ms=600_000)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=timezone.now())
    for side, notation in (("dwarf", "d F1-F6"), ("troll", "T G7-F7 xF6")):
        battle = submit_move(
            battle.pk,
            side=side,
            version=battle.clock_version,
            notation=notation,
            now=timezone.now(),
        )
    return battle


def open_battle(browser, log_in, base: str, battle: Battle, viewport: dict, **options):
    context = browser.new_context(viewport=viewport, **options)
    context.route("**/events/", lambda route: route.abort())  # WSGI live server: no SSE
    log_in(context, battle.first_entry.player.user.username)
    page = context.new_page()
    page.goto(base + reverse("games:battle", args=[battle.pk]))
    page.wait_for_selector("#board-panel", timeout=WAIT_MS)
    return page


def inside(page, selector: str) -> bool:
    """Whether every element matching ``selector`` lies wholly inside the viewport."""
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)].every(el => {
             const r = el.getBoundingClientRect();
             return r.width > 0 && r.top >= 0 && r.left >= 0 &&
                    r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; })""",
        selector,
    )


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_board_clocks_moves_and_controls_fit_a_laptop_screen(
    browser, live_server, log_in, battle_in_play, size
):
    width, height = size
    page = open_battle(
        browser, log_in, live_server.url, battle_in_play, {"width": width, "height": height}
    )
    assert page.locator(".clock-face").count() == 2
    for selector in (".thud-board", ".clock-face", "#move-list", ".score", ".end-offer"):
        if not inside(page, selector):
            page.screenshot(path=str(OUT / f"battle-{width}x{height}-FAILED.png"))
        assert inside(page, selector), f"{selector} is not inside {width}×{height}"
    page.screenshot(path=str(OUT / f"battle-{width}x{height}.png"))
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    board = page.locator(".thud-board").bounding_box()
    side = page.locator(".battle-side").bounding_box()
    assert side["x"] >= board["x"] + board["width"]  # beside the board, not under it
    assert board["height"] >= height * 0.6  # sized by the viewport's height
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / f"battle-{width}x{height}.png"))


def clocks_over_board(page) -> bool:
    """Whether the clocks' box overlaps the board's on screen (both as drawn now)."""
    return page.evaluate(
        """() => { const c = document.querySelector('.battle-clocks').getBoundingClientRect();
             const b = document.querySelector('.thud-board').getBoundingClientRect();
             return c.bottom > b.top + 0.5 && c.top < b.bottom - 0.5; }"""
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_board_is_full_width_and_the_clocks_never_cover_it(
    browser, live_server, log_in, battle_in_play, scheme
):
    phone = {"width": 390, "height": 844}
    page = open_battle(
        browser,
        log_in,
        live_server.url,
        battle_in_play,
        phone,
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= phone["width"]
    board = page.locator(".thud-board").bounding_box()
    assert board["width"] >= phone["width"] - 2
    # At the top of the page: both clocks on screen, the board right under them.
    assert inside(page, ".clock-face") and not clocks_over_board(page)
    for scroll in (200, 400):  # scrolled: whatever of the board shows is not under them
        page.evaluate(f"scrollTo(0, {scroll})")
        assert not clocks_over_board(page)
    page.locator("#move-list").scroll_into_view_if_needed()  # scrolled to the bottom
    assert page.evaluate("scrollY") > 0
    assert not clocks_over_board(page)
    OUT.mkdir(exist_ok=True)
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=str(OUT / f"battle-390x844-{scheme}.png"))


def test_a_phone_tap_beside_a_lone_target_plays_that_target(
    browser, live_server, log_in, battle_in_play
):
    """A tap on no target (here: the empty square next to G1's only path, off the line of
    targets) means the nearest legal target within one square; a tap on the touched
    piece itself means nothing."""
    phone = {"width": 390, "height": 844}
    page = open_battle(
        browser, log_in, live_server.url, battle_in_play, phone, is_mobile=True, has_touch=True
    )
    page.locator('button.selectable[data-square="G1"]').tap()
    target = page.locator('button.target[data-square="G6"]')
    target.wait_for(timeout=WAIT_MS)
    version = page.locator("#board-panel").get_attribute("data-version")
    selected = page.locator('[data-square="G1"]').bounding_box()
    page.touchscreen.tap(selected["x"] + 3, selected["y"] + 3)  # the touched piece: nothing
    page.wait_for_timeout(500)
    assert page.locator("#board-panel").get_attribute("data-version") == version
    # Half a square left of G6's centre, over F6 (no target): G6 is the nearest target.
    box = target.bounding_box()
    page.touchscreen.tap(box["x"] - box["width"] * 0.4, box["y"] + box["height"] / 2)
    page.wait_for_function(
        f"document.getElementById('board-panel').dataset.version !== '{version}'",
        timeout=WAIT_MS,
    )
    assert page.locator("#move-list li").last.inner_text() == "d G1-G6"


def test_escape_cancels_a_selection_where_the_rules_allow(browser, live_server, log_in):
    """Without the touch rule a selection binds nothing: Escape takes it back and the
    focus stays on the square. (Under the touch rule Escape only says the piece is bound.)"""
    match = make_match(variant="timed24", think_ms=600_000, move_ms=600_000, commit_rule="none")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=timezone.now())
    page = open_battle(browser, log_in, live_server.url, battle, {"width": 1366, "height": 768})
    page.locator('button.selectable[data-square="F1"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-square="F1"].selected', timeout=WAIT_MS)
    assert page.locator("button.target").count() > 0
    # The swapped board takes the focus back once htmx has settled it (board.js): a
    # keyboard user sees the focus ring on F1 before pressing the next key.
    page.wait_for_function(
        "document.activeElement.dataset.square === 'F1'"
        " && document.activeElement.classList.contains('selected')",
        timeout=WAIT_MS,
    )
    page.keyboard.press("Escape")
    page.wait_for_function(
        "!document.querySelector('[data-square].selected')"
        " && document.activeElement.dataset.square === 'F1'",
        timeout=WAIT_MS,
    )
    assert page.locator("button.target").count() == 0
    assert Battle.objects.get(pk=battle.pk).clock_version == battle.clock_version
