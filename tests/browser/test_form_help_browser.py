"""The organiser's new-tournament and settings forms with their help (issue 22), in a real
browser at a phone's and a laptop's width: each radio button is inside its label, the
capture-policy pictures and the variants' explanation fit the column, and axe finds no
WCAG 2.x A/AA violation in the forms."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import Group

from tests.browser.test_referee_browser import WAIT_MS, log_in
from tests.factories import TournamentFactory, UserFactory
from tournaments.permissions.roles import ORGANISERS_GROUP

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@pytest.mark.parametrize("size", SIZES)
def test_the_forms_help_reads_in_the_browser(browser, live_server, screenshot, size):
    organiser = UserFactory(username="organiser-h")
    organiser.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    TournamentFactory(name="Lancre Open", slug="lancre", owner=organiser)
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    log_in(page, live_server.url, "organiser-h")
    for path, name in (("/manage/t/new/", "new"), ("/manage/t/lancre/settings/", "settings")):
        page.goto(live_server.url + path)
        page.wait_for_selector("#capture-policy-help", timeout=WAIT_MS)
        screenshot(page, f"form-help-{name}-{size}")
        # Each radio button inside its own label (where the lead's form CSS places it).
        for field in ("variant", "capture_policy", "format"):
            radios = page.locator(f"input[type=radio][name={field}]")
            assert radios.count() == page.locator(f"label > input[name={field}]").count() > 1
        width = page.evaluate("document.documentElement.clientWidth")
        for selector in ("#capture-policy-help", "#variant-help"):
            box = page.locator(selector).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, selector
        results = Axe().run(
            page, context="main form", options={"runOnly": {"type": "tag", "values": TAGS}}
        )
        assert results.violations_count == 0, results.generate_report()
    context.close()
