"""Each role's main task by keyboard alone, from ``/`` (issue 22; WCAG 2.1.1, 2.4.3, 2.4.7).

The anonymous visitor's path to the standings is in test_accessibility_browser.py. Here:
a referee enters a result, a player reports their own, the organiser creates a tournament
and a site administrator makes someone an organiser; each on a phone-sized page (the menu
collapsed behind its button) with Tab, typing, Space and Enter only. ``tab_to`` checks that
every element reached shows a focus indicator.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.urls import reverse

from tests.browser.keyboard import tab_to
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.permissions.roles import ORGANISERS_GROUP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEMO = "ankh-morpork-open"
PHONE = {"width": 390, "height": 844}
WAIT_MS = 15_000


@pytest.fixture
def phone(browser, live_server, demo, log_in):
    def open_as(username: str | None):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        log_in(context, username)
        page = context.new_page()
        page.goto(live_server.url + "/", wait_until="load")
        return page

    return open_as


def type_into(page, locator, text: str) -> None:
    tab_to(page, locator)
    page.keyboard.type(text)


def announced(page) -> str:
    page.wait_for_function(
        "document.getElementById('announcer').textContent.trim() !== ''", timeout=WAIT_MS
    )
    return page.evaluate("document.getElementById('announcer').textContent")


def test_a_referee_enters_a_result_by_keyboard_and_hears_it_saved(phone):
    match = Match.objects.get(round__tournament__slug=DEMO, round__number=1, table=3)
    page = phone("referee1")
    round_url = reverse("referee_round", args=[DEMO, 1])
    tab_to(page, page.locator(f"#home-referee a.button[href='{round_url}']"))
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{round_url}", timeout=WAIT_MS)
    match_url = reverse("referee_match", args=[DEMO, match.pk])
    tab_to(page, page.locator(f"a[href='{match_url}']"))
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{match_url}", timeout=WAIT_MS)
    fields = page.locator(".result-form .survivor-fields input")
    for index, count in enumerate(["20", "3", "18", "4"]):
        type_into(page, fields.nth(index), count)
    page.keyboard.press("Enter")  # submits the form from its last field
    assert announced(page).strip() == "Result entered."
    # The focus stayed in the answer, not back at the top of the page.
    assert page.evaluate("document.activeElement.closest('#result-panel') !== null")
    match.refresh_from_db()
    assert match.result_status == "entered"


def test_a_player_reports_their_own_result_by_keyboard(phone):
    match = Match.objects.get(round__tournament__slug=DEMO, round__number=1, table=3)
    user = match.player_b.player.user  # in no other running tournament: this is "My match"
    page = phone(user.username)
    match_url = reverse("referee_match", args=[DEMO, match.pk])
    tab_to(page, page.locator(f"#home-player a[href='{match_url}']"))
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{match_url}", timeout=WAIT_MS)
    fields = page.locator(".result-form .survivor-fields input")
    for index, count in enumerate(["12", "1", "30", "2"]):
        type_into(page, fields.nth(index), count)
    tab_to(page, page.locator(".result-form button[type=submit]"))
    page.keyboard.press("Space")
    assert announced(page).strip() == "Result entered."
    # The button pressed went with the swap: the focus moved to the answer.
    assert page.evaluate("document.activeElement.closest('#result-panel') !== null")
    match.refresh_from_db()
    assert match.result_status == "entered"


def test_the_organiser_creates_a_tournament_by_keyboard(phone):
    page = phone("organiser")
    new_url = reverse("organiser_new")
    tab_to(page, page.locator(f"#home-organiser a[href='{new_url}']"), max_presses=60)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{new_url}", timeout=WAIT_MS)
    type_into(page, page.locator("#id_name"), "Keyboard Cup")
    # A radio group is one Tab stop; the arrow keys choose within it.
    format_radios = page.locator("input[name=format]")
    tab_to(page, format_radios.first, max_presses=10)
    page.keyboard.press("ArrowDown")
    assert format_radios.nth(1).is_checked()
    chosen = format_radios.nth(1).get_attribute("value")
    tab_to(page, page.locator("main form button[type=submit]"), max_presses=80)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage/t/keyboard-cup/", timeout=WAIT_MS)
    created = Tournament.objects.get(slug="keyboard-cup")
    assert created.format == chosen
    assert page.locator(".messages").inner_text().strip() != ""


def test_a_site_administrator_makes_someone_an_organiser_by_keyboard(phone):
    newcomer = get_user_model().objects.create_user("newcomer")
    page = phone("siteadmin")
    menu = page.locator(".menu-button")
    tab_to(page, menu)
    page.keyboard.press("Enter")  # opens the collapsed menu
    assert menu.get_attribute("aria-expanded") == "true"
    new_url = reverse("organiser_new")
    tab_to(page, page.locator(f"#home-organiser a[href='{new_url}']"), max_presses=60)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{new_url}", timeout=WAIT_MS)
    roles_url = reverse("organiser_roles")
    tab_to(page, page.locator(f"nav.tabs a[href='{roles_url}']"))
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{roles_url}", timeout=WAIT_MS)
    type_into(page, page.locator("#id_username"), "newcomer")
    with page.expect_navigation(timeout=WAIT_MS):
        page.keyboard.press("Enter")
    assert newcomer.groups.filter(name=ORGANISERS_GROUP).exists()
    # Revoking asks first, in a dialog the keyboard can answer; Escape cancels it.
    revoke = page.locator("#organisers li", has_text="newcomer").locator("button")
    tab_to(page, revoke)
    page.keyboard.press("Enter")
    dialog = page.locator("#confirm-dialog")
    assert dialog.is_visible() and "newcomer" in dialog.inner_text()
    page.keyboard.press("Escape")
    assert not dialog.is_visible()
    assert newcomer.groups.filter(name=ORGANISERS_GROUP).exists()
    assert page.evaluate("document.activeElement.textContent.trim()") == revoke.inner_text().strip()
    page.keyboard.press("Enter")
    tab_to(page, page.locator("#confirm-dialog-ok"), max_presses=3)
    with page.expect_navigation(timeout=WAIT_MS):
        page.keyboard.press("Enter")
    assert not Group.objects.get(name=ORGANISERS_GROUP).user_set.filter(pk=newcomer.pk).exists()
