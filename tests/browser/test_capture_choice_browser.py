"""A capture choice is a step on the board itself (issue 42), in headless Chromium against
the live server (the live stream is cut: it is not under test here).

Thud: a troll lands next to two dwarfs; the dwarfs are marked on the board as checkboxes
named "Capture dwarf at …", the destination is framed, the confirm button is in view on a
390×844 phone, a reload shows the same choice, and clicking a marked dwarf drops it.
By keyboard: "Skip to the board" is the page's first Tab stop; arrow keys, Enter, Space
and Enter play the same move. Cavalli: the double to strike out is chosen by the number
on it, with the keyboard. The phone's clocks no longer cover the board when it scrolls.

Screenshots for a human: /tmp/shots-h42board/ (390 and 1366 px, English and Italian).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_casual_battle
from games.models.battle import Battle
from games.models.history import Move
from tests.browser.sessions import session_cookie
from tests.browser.test_battle_browser import diagram
from tests.browser.test_keyboard_battle_browser import FOCUSED, walk_to
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

SHOTS = Path("/tmp/shots-h42board")
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}
LAPTOP = {"width": 1366, "height": 768}
WAIT_MS = 20_000


def troll_to_move() -> Battle:
    """A casual Thud battle, trolls to move: F6 to F5 lands next to the dwarfs on E4 and
    G4 (and F1 is far away), so the move asks which of the two to capture."""
    battle = create_casual_battle(
        game="thud",
        first=UserFactory(username="dwarf_player"),
        second=UserFactory(username="troll_player"),
        timing="correspondence",
        now=timezone.now(),
    )
    Battle.objects.filter(pk=battle.pk).update(
        board=diagram({(5, 5): "T", (3, 4): "d", (3, 6): "d", (0, 5): "d"}, "troll"),
        side_to_move="troll",
        first_count=3,
        second_count=1,
    )
    return Battle.objects.get(pk=battle.pk)


def cavalli_battle() -> Battle:
    """A casual Cavalli battle on seed 7: landing on A1 (33) leaves doubles to strike out."""
    return create_casual_battle(
        game="cavalli",
        first=UserFactory(username="white_player"),
        second=UserFactory(username="black_player"),
        timing="correspondence",
        board_seed=7,
        now=timezone.now(),
    )


def open_page(browser, base: str, user, battle: Battle, viewport: dict, language: str = "en"):
    options = {"is_mobile": True, "has_touch": True} if viewport["width"] < 500 else {}
    context = browser.new_context(viewport=viewport, **options)
    context.route("**/events/", lambda route: route.abort())
    context.add_cookies(
        [
            session_cookie(user, base),
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base},
        ]
    )
    page = context.new_page()
    page.goto(base + reverse("games:battle", args=[battle.pk]))
    page.wait_for_selector("[data-board]", timeout=WAIT_MS)
    return page


def in_viewport(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= view["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= view["width"]
    )


def choose_f5(page) -> None:
    page.locator("button.selectable[data-square=F6]").click()
    page.locator("button.target[data-square=F5]").click()
    page.wait_for_selector("#capture-form", timeout=WAIT_MS)


@pytest.mark.parametrize("phone", [PHONE, SMALL_PHONE], ids=["390x844", "360x640"])
def test_a_troll_captures_by_tapping_the_marked_dwarfs_on_a_phone(browser, live_server, phone):
    SHOTS.mkdir(exist_ok=True)
    battle = troll_to_move()
    page = open_page(browser, live_server.url, battle.second_user, battle, phone)
    # Scrolled down (to the score under the board, say), the clocks and the bar's place
    # above the board out of view: the bar comes into view all the same (it sticks).
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")  # to the bottom
    page.wait_for_function("scrollY >= 250", timeout=WAIT_MS)
    page.locator('[data-square="F5"]').scroll_into_view_if_needed()
    choose_f5(page)
    options = page.locator(".thud-board input.option-input")
    assert options.count() == 2
    e4 = page.get_by_role("checkbox", name="Capture dwarf at E4")
    g4 = page.get_by_role("checkbox", name="Capture dwarf at G4")
    assert e4.is_checked() and g4.is_checked()
    assert "chosen" in page.locator('[data-square="F5"]').get_attribute("class")
    assert in_viewport(page, "#confirm-capture")
    assert page.evaluate("document.documentElement.scrollWidth") <= phone["width"]
    assert not Move.objects.exists()
    if phone == SMALL_PHONE:  # (at 844 px the page is too short to scroll the board away)
        # Scrolled on down the board (its top rows off the screen): the bar stays in view.
        page.evaluate(
            "scrollBy(0, document.querySelector('.thud-board').getBoundingClientRect().top + 120)"
        )
        assert page.locator(".thud-board").bounding_box()["y"] < -100
    assert in_viewport(page, "#confirm-capture")
    page.screenshot(path=str(SHOTS / f"thud-choice-{phone['width']}-en-scrolled.png"))

    # A reload keeps the pending move (its address says it) and posts nothing.
    assert "to=F5" in page.url
    page.reload()
    page.wait_for_selector("#capture-form", timeout=WAIT_MS)
    assert page.locator(".thud-board input.option-input").count() == 2
    assert "chosen" in page.locator('[data-square="F5"]').get_attribute("class")
    assert in_viewport(page, "#confirm-capture")
    assert not Move.objects.exists()

    # Tap the dwarf on E4: it is dropped from the capture; confirm takes G4 only.
    page.locator('label[title="E4"]').tap()
    assert not page.get_by_role("checkbox", name="Capture dwarf at E4").is_checked()
    page.locator("#confirm-capture").click()
    page.locator("#move-list").get_by_text("T F6-F5 xG4").wait_for(timeout=WAIT_MS)
    assert list(Move.objects.values_list("notation", flat=True)) == ["T F6-F5 xG4"]
    page.wait_for_function("!location.search.includes('to=')", timeout=WAIT_MS)
    page.reload()  # the move is made: a reload shows no choice and plays nothing again
    page.wait_for_selector("[data-board]", timeout=WAIT_MS)
    assert page.locator("#capture-form").count() == 0
    assert Move.objects.count() == 1


def test_a_troll_captures_by_keyboard_from_the_skip_link(browser, live_server):
    battle = troll_to_move()
    page = open_page(browser, live_server.url, battle.second_user, battle, LAPTOP)
    page.keyboard.press("Tab")
    first = page.evaluate("[document.activeElement.id, document.activeElement.textContent]")
    assert first == ["skip-to-board", "Skip to the board"]
    page.keyboard.press("Enter")
    page.wait_for_function(f"!!({FOCUSED})()", timeout=WAIT_MS)
    walk_to(page, "F6")
    page.keyboard.press("Enter")
    page.wait_for_selector("button.target[data-square=F5]", timeout=WAIT_MS)
    page.wait_for_function(f"({FOCUSED})() === 'F6'", timeout=WAIT_MS)
    walk_to(page, "F5")
    page.keyboard.press("Enter")
    page.wait_for_selector("#capture-form", timeout=WAIT_MS)
    # The focus is on the first marked dwarf, a checkbox with its own name.
    page.wait_for_function(
        "document.activeElement && document.activeElement.classList.contains('option-input')",
        timeout=WAIT_MS,
    )
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Capture dwarf at E4"
    )
    assert in_viewport(page, "#confirm-capture")
    page.keyboard.press("Space")  # E4 unmarked
    assert not page.get_by_role("checkbox", name="Capture dwarf at E4").is_checked()
    walk_to(page, "G4")
    assert page.evaluate("document.activeElement.checked") is True
    page.keyboard.press("Enter")  # confirm the choice as it stands
    page.locator("#move-list").get_by_text("T F6-F5 xG4").wait_for(timeout=WAIT_MS)
    # The focus follows the troll to its destination.
    page.wait_for_function(f"({FOCUSED})() === 'F5'", timeout=WAIT_MS)
    assert list(Move.objects.values_list("notation", flat=True)) == ["T F6-F5 xG4"]


def test_cavalli_strike_out_by_the_number_with_the_keyboard(browser, live_server):
    battle = cavalli_battle()
    page = open_page(browser, live_server.url, battle.first_user, battle, LAPTOP)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip-to-board"
    page.keyboard.press("Enter")
    page.wait_for_function(f"!!({FOCUSED})()", timeout=WAIT_MS)
    walk_to(page, "A1")
    page.keyboard.press("Enter")
    page.wait_for_selector("#capture-form", timeout=WAIT_MS)
    radios = page.locator(".cavalli-board input.option-input[type=radio]")
    assert radios.count() >= 2
    # Each double is named by the number on it, and the prompt lists the numbers.
    names = radios.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    numbers = radios.evaluate_all("els => els.map(e => e.closest('label').textContent.trim())")
    assert names == [f"Strike out {n}" for n in numbers]
    prompt = page.locator("#choice-prompt").inner_text()
    assert all(n in prompt for n in numbers)
    assert not any(sq in prompt for sq in radios.evaluate_all("els => els.map(e => e.value)"))
    # Walk to a double that is not pre-checked and press Enter: it is struck out.
    unchecked = radios.evaluate_all("els => els.filter(e => !e.checked).map(e => e.value)")[0]
    number = page.locator(f".cavalli-board label[title={unchecked}]").inner_text().strip()
    walk_to(page, unchecked)
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        f"Strike out {number}"
    )
    page.keyboard.press("Enter")
    page.locator("#move-list").get_by_text(f"A1 x{unchecked}").wait_for(timeout=WAIT_MS)
    assert list(Move.objects.values_list("notation", flat=True)) == [f"A1 x{unchecked}"]
    # No capture words in Cavalli.
    assert page.locator("#material").count() == 0


def test_phone_clocks_do_not_cover_the_board_when_scrolled(browser, live_server):
    battle = troll_to_move()
    page = open_page(browser, live_server.url, battle.second_user, battle, PHONE)
    page.mouse.wheel(0, 400)
    page.wait_for_function("window.scrollY > 100", timeout=WAIT_MS)
    clocks = page.locator(".battle-clocks").bounding_box()
    board = page.locator(".thud-board").bounding_box()
    # Whatever part of the board is on screen is not under the clocks.
    assert clocks["y"] + clocks["height"] <= max(board["y"], 0) + 1
    page.screenshot(path=str(SHOTS / "thud-scrolled-390-en.png"))


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1366"])
def test_screenshots_of_the_choice_in_both_games(browser, live_server, language, viewport):
    SHOTS.mkdir(exist_ok=True)
    width = viewport["width"]
    battle = troll_to_move()
    page = open_page(browser, live_server.url, battle.second_user, battle, viewport, language)
    page.goto(
        live_server.url + reverse("games:battle", args=[battle.pk]) + "?sq=F6&to=F5",
    )
    page.wait_for_selector("#capture-form", timeout=WAIT_MS)
    assert in_viewport(page, "#confirm-capture")
    page.screenshot(path=str(SHOTS / f"thud-choice-{width}-{language}.png"))
    cavalli = cavalli_battle()
    page = open_page(browser, live_server.url, cavalli.first_user, cavalli, viewport, language)
    page.goto(live_server.url + reverse("games:battle", args=[cavalli.pk]) + "?to=A1")
    page.wait_for_selector("#capture-form", timeout=WAIT_MS)
    assert in_viewport(page, "#confirm-capture")
    page.screenshot(path=str(SHOTS / f"cavalli-choice-{width}-{language}.png"))
