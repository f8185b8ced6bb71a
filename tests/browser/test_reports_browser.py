"""The statistics, crosstable and final report pages on a 360 px phone, and their charts.

A wide crosstable (14 players, 7 rounds) scrolls inside its
own wrapper; the page itself never scrolls sideways. Screenshots go to test-output/browser/.
Every chart text lies inside its SVG as the browser measures it, the charts pass axe, and
their colours follow the colour scheme (static/css/charts.css).
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.fixtures.browsers import SCREENSHOTS
from tests.tournaments.event import grow_event
from tests.tournaments.web.test_views_reports import NAMES, swiss
from thud_site.palette import DARK, LIGHT

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


LONG_NAME = "Bartholomew Featherstonehaugh-Worthington the Third"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

# Every <text> of every chart, measured by the browser with the font it really drew.
TEXT_BOXES = """() => [...document.querySelectorAll('svg.chart')].flatMap(svg => {
  const box = svg.viewBox.baseVal;
  return [...svg.querySelectorAll('text')].map(t => {
    const b = t.getBBox();
    return {text: t.textContent, x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height,
            width: box.width, height: box.height};
  });
})"""
CHART_FITS = """() => [...document.querySelectorAll('svg.chart')].map(svg => [
  svg.getBoundingClientRect().width, svg.parentElement.clientWidth, svg.viewBox.baseVal.width])"""
STROKE = """(selector) => getComputedStyle(document.querySelector(selector)).%s"""


def rgb(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1366, "height": 768}], ids=["phone", "desk"])
def test_chart_texts_are_inside_their_svg_and_the_charts_pass_axe(browser, live_server, viewport):
    swiss(3, names=[*NAMES, LONG_NAME, "Nobby Nobbs"])
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    for url in ("/t/swiss/report/", "/t/swiss/stats/"):
        page.goto(live_server.url + url)
        page.wait_for_load_state("load")
        boxes = page.evaluate(TEXT_BOXES)
        assert boxes, url
        for b in boxes:
            assert b["x"] >= 0 and b["right"] <= b["width"], (url, b)
            assert b["y"] >= 0 and b["bottom"] <= b["height"], (url, b)
        for shown, room, natural in page.evaluate(CHART_FITS):
            assert shown <= room + 0.5 and shown <= natural + 0.5  # shrunk, never stretched
        page.evaluate("document.querySelectorAll('details.chart-data').forEach(d => d.open = true)")
        result = Axe().run(
            page,
            context={"include": [["figure.chart-box"]]},
            options={"runOnly": {"type": "tag", "values": WCAG}},
        )
        assert result.violations_count == 0, result.generate_report()
    context.close()


def test_the_chart_colours_follow_the_colour_scheme(browser, live_server, screenshot):
    swiss(3, names=[*NAMES, LONG_NAME, "Nobby Nobbs"])
    for scheme, palette in (("light", LIGHT), ("dark", DARK)):
        context = browser.new_context(viewport=PHONE, color_scheme=scheme)
        page = context.new_page()
        page.goto(live_server.url + "/t/swiss/report/")
        line = "#rank-chart .chart-line.chart-s2"
        assert page.evaluate(STROKE % "stroke", line) == rgb(palette.series[1]), scheme
        assert page.evaluate(STROKE % "fill", "#rank-chart .chart-bg") == rgb(palette.background)
        assert page.evaluate(STROKE % "fill", "#rank-chart text") == rgb(palette.text)
        page.locator("#rank-chart").screenshot(path=str(SCREENSHOTS / f"rank-chart-{scheme}.png"))
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1366])
def test_report_and_statistics_pages_pass_axe(browser, live_server, width, scheme):
    t = swiss(2, names=[*NAMES, "Nobby Nobbs"])
    player = t.entries.first().player_id
    urls = ["/t/swiss/report/", "/t/swiss/stats/", "/t/swiss/crosstable/", "/stats/"]
    urls.append(f"/players/{player}/stats/")
    context = browser.new_context(viewport={"width": width, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    reports = []
    for language in ("en", "nb"):
        page.set_extra_http_headers({"Accept-Language": language})
        for url in urls:
            page.goto(live_server.url + url)
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            page.evaluate("window.dispatchEvent(new Event('resize'))")  # scroll cues
            result = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
            if result.violations_count:
                reports.append(f"{language} {url}\n{result.generate_report()}")
    context.close()
    assert not reports, "\n".join(reports)
