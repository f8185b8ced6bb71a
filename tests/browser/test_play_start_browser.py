"""The /play/ forms in a browser (issue 42): each side is offered by its name in the chosen
game, and follows the game when another is chosen (static/js/play_start.js), in the
challenge form and the computer's form alike; without JavaScript each label names the side
in every game. The opponent's username field suggests players' names (a <datalist> fed by
/play/users/) as one types. axe finds nothing wrong at 390 and 1366 px, and a 360 px phone
does not scroll sideways. Screenshots: ``test-output/browser/play-start-*.png``."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engines import registry
from play.models import Challenge
from tests.browser.axe import AXE_SCRIPT, scan
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(autouse=True)
def _private_limits(settings):
    """The look-ups count in this process's memory, never in a shared Redis."""
    settings.CACHES = {
        name: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-play-start-browser-{name}",
        }
        for name in ("default", "limits")
    }
    from django.core.cache import caches

    for name in ("default", "limits"):
        caches[name].clear()


def sides(form) -> list[str]:
    """The accessible names of the side radio buttons of ``form``, in order."""
    names = []
    for radio in form.locator("input[data-sides]").all():
        label = form.locator(f'label[for="{radio.get_attribute("id")}"]')
        names.append(re.sub(r"\s+", " ", label.inner_text()).strip())
    return names


def test_sides_follow_the_chosen_game_and_names_are_suggested(
    browser, live_server, log_in, screenshot
):
    UserFactory(username="alice")
    for name in ("agatha", "Agnes", "bob"):
        UserFactory(username=name)
    UserFactory(username="agent-gone", is_active=False)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(AXE_SCRIPT)
    log_in(context, "alice")
    page = context.new_page()
    page.goto(live_server.url + reverse("play:start"))
    challenge = page.locator("#new-challenge form")
    robot = page.locator("#play-computer form")

    assert sides(challenge) == ["Dwarfs", "Trolls", "Random"]
    assert sides(robot) == ["Dwarfs", "Trolls", "Toss a coin"]
    challenge.get_by_role("radio", name="Battaglia di Cavalli", exact=True).check()
    assert sides(challenge) == ["White", "Black", "Random"]
    assert sides(robot) == ["Dwarfs", "Trolls", "Toss a coin"]  # each form its own game
    assert challenge.get_by_role("radio", name="Quickfire", exact=True).is_checked()
    assert challenge.get_by_role("radio", name="30 moves each").is_checked()

    # The username by keyboard: type, the list offers the matching active players.
    username = challenge.locator("input[name=username]")
    username.focus()
    page.keyboard.type("ag")
    listed = page.locator(f"datalist#{username.get_attribute('list')} option")
    listed.first.wait_for(state="attached")
    assert [o.get_attribute("value") for o in listed.all()] == ["agatha", "Agnes"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "play-start-phone")
    assert scan(page, "player", "en", page.url) == []

    page.keyboard.type("atha")
    challenge.get_by_role("radio", name="Black", exact=True).check()
    challenge.get_by_role("radio", name="24 moves each").check()
    username.focus()
    page.keyboard.press("Enter")  # submits the form
    page.wait_for_selector("#made li.challenge")
    made = Challenge.objects.get()
    assert (made.opponent.username, made.game, made.first) == ("agatha", "cavalli", "opponent")
    assert (made.timing, made.move_limit) == ("quickfire", 24)

    page.set_viewport_size(LAPTOP)
    screenshot(page, "play-start-laptop")
    assert scan(page, "player", "en", page.url) == []
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_without_javascript_each_side_is_named_in_every_game(browser, live_server, log_in):
    UserFactory(username="alice")
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    log_in(context, "alice")
    page = context.new_page()
    page.goto(live_server.url + reverse("play:start"))
    challenge = page.locator("#new-challenge form")
    # Every registered game names its side (the test settings add Tiny after the two).
    named = [
        " · ".join(f"{game.sides[index].name} ({game.name})" for game in registry.all_games())
        for index in (0, 1)
    ]
    assert named[0].startswith("Dwarfs (Thud) · White (Battaglia di Cavalli)")
    assert named[1].startswith("Trolls (Thud) · Black (Battaglia di Cavalli)")
    assert sides(challenge) == [*named, "Random"]
    assert challenge.locator("input[name=username]").get_attribute("list") is None
