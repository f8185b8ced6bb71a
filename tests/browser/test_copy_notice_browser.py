"""A copy's notices in the browser (issue 41, "Re-importing counts nothing twice"): the
import job's page, the copy's dashboard, tournament and standings pages, at 390 and 1366 px, in
English and Norwegian: no axe violation, no sideways scroll, the notice names and links the
original.

Screenshots go to ``test-output/screens/copy-<page>-<language>-<width>.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.browser.axe import AXE_SCRIPT, EMPTY_STREAM, describe, scan
from tournaments.archive.document import build_document, dumps
from tournaments.archive.jobs import queue_import
from tournaments.models.tournament import Tournament
from tournaments.tasks import run_archive_import

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]

SCREENS = Path(__file__).resolve().parents[2] / "test-output" / "screens"
VIEWPORTS = ({"width": 390, "height": 844}, {"width": 1366, "height": 768})
DEMO = "ankh-morpork-open"
WAIT_MS = 20_000


def test_a_copys_notices_are_accessible_and_fit_a_phone(browser, live_server, demo, log_in):
    original = Tournament.objects.get(slug=DEMO)
    organiser = get_user_model().objects.get(username="organiser")
    text = dumps(build_document(original, now=timezone.now()))
    job = queue_import(
        text.encode(),
        file_name="ankh-morpork-open-archive.json",
        slug="ankh-morpork-copy",
        language="en",
        by=organiser,
        now=timezone.now(),
    )
    run_archive_import(job.pk)  # the task, as the default worker runs it
    assert Tournament.objects.get(slug="ankh-morpork-copy").copy_of == original
    pages = {
        "job": ("organiser", reverse("organiser_archive_import", args=[job.pk])),
        "dashboard": ("organiser", reverse("organiser_dashboard", args=["ankh-morpork-copy"])),
        "tournament": (None, reverse("tournament", args=["ankh-morpork-copy"])),
        "standings": (None, reverse("standings", args=["ankh-morpork-copy"])),
    }
    SCREENS.mkdir(parents=True, exist_ok=True)
    violations, widths = [], {}
    for language in ("en", "nb"):
        for name, (username, path) in pages.items():
            for viewport in VIEWPORTS:
                phone = viewport["width"] == 390
                context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
                log_in(context, username)
                context.add_cookies(
                    [
                        {
                            "name": settings.LANGUAGE_COOKIE_NAME,
                            "value": language,
                            "url": live_server.url,
                        }
                    ]
                )
                context.add_init_script(AXE_SCRIPT)
                context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
                page = context.new_page()
                page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
                shot = SCREENS / f"copy-{name}-{language}-{viewport['width']}.png"
                page.screenshot(path=str(shot), full_page=True)
                notice = page.locator(".copy-notice")
                assert notice.count() == 1, (name, language)
                link = notice.locator("a")
                assert link.inner_text() == original.name
                assert link.get_attribute("href") == reverse("tournament", args=[DEMO])
                violations += scan(page, username or "public", language, path)
                widths[(name, language, viewport["width"])] = page.evaluate(
                    "document.documentElement.scrollWidth"
                )
                context.close()
    assert not violations, describe(violations)
    wide = {k: w for k, w in widths.items() if k[2] == 390 and w > 390}
    assert not wide, wide
