"""Personal links in a browser (issue 41): the dashboard's Copy link button by keyboard,
read out by its status (aria-live); the dashboard's link column, the printable list and
the e-mail confirmation fit a phone and a laptop and pass axe. Screenshots go to
test-output/links/."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.browser.axe import describe, scan
from tournaments.models.tournament import Entry
from tournaments.organising.personal_links import personal_path

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "links"
VIEWPORTS = [{"width": 390, "height": 844}, {"width": 1366, "height": 768}]
DEMO = "ankh-morpork-open"
WAIT_MS = 20_000


def give_addresses(n: int) -> None:
    """Give the first ``n`` players of the demo an account with an address."""
    User = get_user_model()
    for entry in Entry.objects.filter(tournament__slug=DEMO).order_by("seed")[:n]:
        user = entry.player.user or User.objects.create_user(f"mail{entry.pk}")
        user.email = f"p{entry.pk}@example.org"
        user.save()
        entry.player.user = user
        entry.player.save()


def test_copy_link_by_keyboard_copies_the_link_and_says_copied(browser, live_server, demo, log_in):
    SHOTS.mkdir(parents=True, exist_ok=True)
    give_addresses(3)
    entry = Entry.objects.filter(tournament__slug=DEMO).order_by("seed").first()
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.add_init_script(AXE_SCRIPT)
    log_in(context, "organiser")
    page = context.new_page()
    path = reverse("organiser_dashboard", args=[DEMO])
    page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
    field = page.locator(f"#link-{entry.pk}")
    assert field.input_value() == live_server.url + personal_path(entry)
    button = page.get_by_role("button", name=f"Copy link {entry.player.name}")
    field.focus()
    page.keyboard.press("Tab")  # the button comes right after its link
    assert button.evaluate("el => el === document.activeElement")
    page.keyboard.press("Enter")
    status = field.locator("xpath=..").locator("[role=status]")
    assert status.get_attribute("aria-live") == "polite"
    page.wait_for_function("s => s.textContent === 'Copied'", arg=status.element_handle())
    old = field.input_value()
    assert page.evaluate("navigator.clipboard.readText()") == old
    # Revoking asks first; the swapped table shows the new link, with its button again.
    row = page.locator("#players-table tbody tr", has_text=entry.player.name)
    row.get_by_role("button", name=f"Revoke {entry.player.name}").click()
    assert "Revoke the personal link of" in page.locator("#confirm-dialog").inner_text()
    page.locator("#confirm-dialog-ok").click()
    page.wait_for_function(
        "old => { const f = document.querySelector('input[id^=link-]'); return f && f.value !== old; }",
        arg=old,
    )
    button = page.get_by_role("button", name=f"Copy link {entry.player.name}")
    button.click()
    page.wait_for_function(
        "v => navigator.clipboard.readText().then(t => t === v)", arg=field.input_value()
    )
    assert field.input_value() != old
    violations = []
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        page.locator("#players-table").scroll_into_view_if_needed()
        # The table scrolls sideways on a phone: show its last column, the links.
        page.locator("#players-table .table-wrap").evaluate("el => el.scrollLeft = el.scrollWidth")
        page.screenshot(path=str(SHOTS / f"dashboard-links-{viewport['width']}.png"))
        page.locator("#personal-links").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"dashboard-link-actions-{viewport['width']}.png"))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{path} scrolls sideways at {width}"
        violations += scan(page, "organiser", "en", path)
    context.close()
    assert not violations, describe(violations)


@pytest.mark.parametrize("name", ["organiser_links", "organiser_email_links"])
def test_the_list_and_the_e_mail_question_fit_both_widths_and_pass_axe(
    browser, live_server, demo, log_in, name
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    give_addresses(3)
    context = browser.new_context()
    context.add_init_script(AXE_SCRIPT)
    log_in(context, "organiser")
    page = context.new_page()
    path = reverse(name, args=[DEMO])
    response = page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
    assert response is not None and response.status == 200
    violations = []
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SHOTS / f"{name}-{viewport['width']}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{path} scrolls sideways at {width}"
        violations += scan(page, "organiser", "en", path)
    if name == "organiser_links":
        page.emulate_media(media="print")
        page.screenshot(path=str(SHOTS / f"{name}-print.png"), full_page=True)
        page.pdf(path=str(SHOTS / f"{name}-print.pdf"))
    context.close()
    assert not violations, describe(violations)
