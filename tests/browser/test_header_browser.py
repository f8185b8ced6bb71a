"""The header of an anonymous visitor: *Log in* and *Create an account* in sight at every
width, outside the menu (issue 42), and reached by Tab; a logged-in user keeps the menu."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.axe import AXE_SCRIPT, describe, scan
from tests.browser.keyboard import tab_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-h42way")
# 800 px: wider than a phone, too narrow for the links on one line (the menu collapses).
WIDTHS = [(360, 740), (390, 844), (800, 600), (1366, 768)]


def in_view(page, locator) -> None:
    """Visible, inside the viewport, and the element hit at its centre is itself."""
    assert locator.is_visible()
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('a')?.textContent.trim()",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit == locator.text_content().strip()


@pytest.mark.parametrize(("width", "height"), WIDTHS)
@pytest.mark.parametrize("language", ["en", "it", "nb"])
def test_an_anonymous_visitor_sees_log_in_and_create_an_account(
    browser, live_server, width, height, language
):
    words = {
        "en": ("Log in", "Create an account"),
        "it": ("Accedi", "Crea un account"),
        "nb": ("Logg inn", "Opprett en konto"),
    }
    context = browser.new_context(viewport={"width": width, "height": height}, locale=language)
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    page.goto(live_server.url + reverse("home"), wait_until="load")
    assert page.evaluate("document.documentElement.lang") == language
    violations = scan(page, "anonymous", language, reverse("home"))
    assert not violations, describe(violations)
    header = page.locator("header.site-header")
    log_in = header.get_by_role("link", name=words[language][0], exact=True)
    register = header.get_by_role("link", name=words[language][1], exact=True)
    for link in (log_in, register):
        in_view(page, link)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(
        path=str(SHOTS / f"header-{language}-{width}.png"),
        clip={"x": 0, "y": 0, "width": width, "height": min(height, 240)},
    )

    # The keyboard reaches both, in the order they are read, and Enter follows the link.
    first = tab_to(page, log_in)
    assert tab_to(page, register) == 1, "Create an account comes straight after Log in"
    assert first <= 8
    page.keyboard.press("Enter")
    page.wait_for_url("**" + reverse("register"))


def test_a_logged_in_user_keeps_the_menu_and_log_out(browser, live_server, demo, log_in):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    log_in(context, "player1")
    page = context.new_page()
    page.goto(live_server.url + reverse("home"), wait_until="load")
    header = page.locator("header.site-header")
    assert header.get_by_role("link", name="Log in", exact=True).count() == 0
    assert header.get_by_role("link", name="Create an account").count() == 0
    page.locator(".menu-button").click()
    assert header.get_by_role("button", name="Log out").is_visible()
