"""Issue 24's organiser fixes in a browser: the entry edit page, the dashboard, the
no-JavaScript confirmation page and the referee clock fit a phone and a laptop and pass
axe; the dialog's yes carries the confirmation the server asks for."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.browser.axe import describe, scan
from tournaments.models.rounds import Match
from tournaments.models.tournament import Entry, Tournament

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

SCREENS = Path(__file__).resolve().parents[2] / "test-output" / "screens"
VIEWPORTS = [{"width": 390, "height": 844}, {"width": 1366, "height": 768}]
DEMO = "ankh-morpork-open"
QUICKFIRE = "quickfire-cup"
EMPTY_STREAM = {"status": 200, "content_type": "text/event-stream", "body": "retry: 600000\n\n"}
WAIT_MS = 20_000


def first_entry() -> Entry:
    return Entry.objects.filter(tournament__slug=DEMO).order_by("seed").first()


def entry_edit():
    return "organiser", reverse("organiser_edit_player", args=[DEMO, first_entry().pk])


def dashboard():
    return "organiser", reverse("organiser_dashboard", args=[DEMO])


def dashboard_with_bots():
    """The dashboard of a tournament that allows bots: the bot account's form shows."""
    Tournament.objects.filter(slug=DEMO).update(allow_bots=True)
    return dashboard()


def referee_clock():
    match = Match.objects.get(round__tournament__slug=QUICKFIRE, round__number=1, table=1)
    battle = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())[0]
    start_battle(battle.pk, now=timezone.now())
    return "referee1", reverse("games:referee_clock", args=[battle.pk])


PAGES = {
    "entry-edit": entry_edit,
    "dashboard-24": dashboard,
    "dashboard-bots": dashboard_with_bots,
    "referee-clock-24": referee_clock,
}


def check(page, name: str, path: str) -> list:
    found = []
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SCREENS / f"{name}-{viewport['width']}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= max(viewport["width"], 390), f"{path} scrolls sideways at {width}"
        assert page.locator("h1").count() == 1
        found += scan(page, "organiser", "en", path)
    return found


@pytest.mark.parametrize("name", list(PAGES))
def test_the_page_fits_both_widths_and_passes_axe(browser, live_server, demo, log_in, name):
    SCREENS.mkdir(parents=True, exist_ok=True)
    username, path = PAGES[name]()
    context = browser.new_context()
    context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
    context.add_init_script(AXE_SCRIPT)
    log_in(context, username)
    page = context.new_page()
    response = page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
    assert response is not None and response.status == 200
    violations = check(page, name, path)
    context.close()
    assert not violations, describe(violations)


def test_without_javascript_closing_asks_on_a_page_of_its_own(browser, live_server, demo, log_in):
    context = browser.new_context(java_script_enabled=False)
    log_in(context, "organiser")
    page = context.new_page()
    _user, path = dashboard()
    page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
    page.locator("#close-form button").click()
    page.wait_for_selector("#confirm-question")
    assert "Close the tournament?" in page.inner_text("#confirm-question")
    page.locator("#confirm-yes").click()
    page.wait_for_load_state("load")
    assert "The tournament is closed." in page.content() or "cannot" in page.content()
    context.close()


def test_the_confirmation_page_fits_both_widths_and_passes_axe(browser, live_server, demo, log_in):
    SCREENS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context()
    context.add_init_script(AXE_SCRIPT)
    log_in(context, "organiser")
    page = context.new_page()
    _user, path = dashboard()
    page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
    # form.submit() skips the dialog: the POST goes without the confirmation.
    with page.expect_navigation():
        page.evaluate("document.getElementById('close-form').submit()")
    page.wait_for_selector("#confirm-question")
    violations = check(page, "confirm-close", path)
    context.close()
    assert not violations, describe(violations)


def test_the_dialog_s_yes_withdraws_the_player(browser, live_server, demo, log_in):
    entry = first_entry()
    assert entry.withdrawn_from_round is None
    context = browser.new_context()
    log_in(context, "organiser")
    page = context.new_page()
    _user, path = dashboard()
    page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
    row = page.locator("#players-table tbody tr", has_text=entry.player.name)
    row.get_by_role("button", name="Withdraw").click()
    dialog = page.locator("#confirm-dialog")
    assert "will not be paired in later rounds" in dialog.inner_text()
    page.locator("#confirm-dialog-ok").click()
    row = page.locator("#players-table tbody tr", has_text=entry.player.name)
    row.get_by_role("button", name="Reinstate").wait_for()
    entry.refresh_from_db()
    assert entry.withdrawn_from_round is not None
    context.close()
