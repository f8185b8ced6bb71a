"""The statistics, crosstable and final report pages on a 360 px phone.

A wide crosstable (14 players, 7 rounds) scrolls inside its
own wrapper; the page itself never scrolls sideways. Screenshots go to test-output/browser/.
"""

from __future__ import annotations

import pytest

from tests.tournaments.event import grow_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

PHONE = {"width": 360, "height": 740}


def test_report_pages_fit_a_phone_and_the_crosstable_scrolls_inside(
    browser, live_server, screenshot
):
    t = grow_event(14, rounds=7)
    player = t.entries.first().player_id
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    pages = {
        "crosstable": f"/t/{t.slug}/crosstable/",
        "report": f"/t/{t.slug}/report/",
        "tournament-stats": f"/t/{t.slug}/stats/",
        "site-stats": "/stats/",
        "player-stats": f"/players/{player}/stats/",
    }
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("load")
        width = page.evaluate("document.documentElement.scrollWidth")
        # Against the phone's width: a mobile browser zooms out and innerWidth grows with it.
        assert width <= PHONE["width"], f"{url} scrolls sideways ({width} px)"
        screenshot(page, f"reports-{name}")
        if name == "crosstable":
            inner = page.evaluate(
                "(() => { const w = document.querySelector('.crosstable-wrap');"
                " return [w.scrollWidth, w.clientWidth]; })()"
            )
            assert inner[0] > inner[1], "the crosstable should scroll inside its wrapper"
    assert errors == []
    context.close()
