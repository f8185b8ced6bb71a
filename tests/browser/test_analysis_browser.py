"""A finished battle's analysis in the browser: on a 390 px phone the page does not
overflow and the move list is shown whole at the page's width; a click on a point of
the graph, or Tab and Enter on it, moves the board to that ply; a worst move's link shows
the better move on the board; axe finds nothing at 390 and 1366 px, in English and in
each translated language (the switcher in the navigation chooses it). Screenshots go to
``test-output/analysis/`` (``ANALYSIS_SHOTS`` names another folder)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.analysis import runs as analysis_runs
from games.models.analysis import BattleAnalysis
from tests.browser.axe import AXE_SCRIPT, EMPTY_STREAM, Violation, describe, scan
from tests.games.analysis_helpers import MS, Tick, played_battle, random_moves
from tests.i18n.support import language_params

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PLIES = 40
WAIT_MS = 20_000
SHOTS = Path(
    os.environ.get(
        "ANALYSIS_SHOTS", Path(__file__).resolve().parents[2] / "test-output" / "analysis"
    )
)


@pytest.fixture
def analysed():
    """A Thud battle of ``PLIES`` random plies (plenty of judged moves), analysed."""
    battle = played_battle(random_moves(PLIES, seed=42))
    user = get_user_model().objects.create_user("asker", password="pw-asker-1234")
    analysis_runs.request_analysis(battle, user, now=timezone.now())
    status = analysis_runs.run_analysis(
        battle.pk, now=timezone.now(), clock=Tick(), read_now=timezone.now, ms=MS
    )
    assert status == BattleAnalysis.Status.DONE
    return battle


def open_replay(browser, live_server, battle, viewport, language="en"):
    context = browser.new_context(viewport=viewport, locale="en-GB")
    context.add_init_script(AXE_SCRIPT)
    context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
    page = context.new_page()
    page.goto(live_server.url + reverse("home"))
    if language != "en":
        page.click(f"form.language-switcher button[value={language}]")
        page.wait_for_function(f"document.documentElement.lang === '{language}'", timeout=WAIT_MS)
    page.goto(live_server.url + reverse("games:replay", args=[battle.pk]) + "?ply=3")
    page.wait_for_selector("svg.eval-chart")
    return context, page


def shown_ply(page) -> int:
    return int(re.search(r"ply=(\d+)", page.url).group(1))


def test_on_a_phone_the_page_fits_and_the_move_list_is_whole(browser, live_server, analysed):
    context, page = open_replay(browser, live_server, analysed, PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    moves = page.locator("#move-list")
    box = moves.bounding_box()
    main = page.locator("main").bounding_box()
    # The list takes the page's width (not one column of two), and nothing is cut off.
    assert box["width"] >= 0.9 * (main["width"] - 2 * 16)
    assert page.evaluate(
        "(() => { const l = document.getElementById('move-list');"
        " return l.scrollHeight <= l.clientHeight + 1 && l.scrollWidth <= l.clientWidth + 1; })()"
    )
    assert moves.locator("li").count() == PLIES
    # Each ply (with its note) has the list's whole width, not one column of two.
    narrowest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('#move-list li')]"
        ".map(li => li.getBoundingClientRect().width))"
    )
    assert narrowest >= 0.95 * box["width"]
    notes = moves.locator(".analysis-mistake")
    assert notes.count() >= 1
    for i in range(notes.count()):
        note = notes.nth(i).bounding_box()
        assert (
            note["x"] >= box["x"] - 1 and note["x"] + note["width"] <= box["x"] + box["width"] + 1
        )
    # The graph is as wide as its box.
    chart = page.locator("svg.eval-chart").bounding_box()
    figure = page.locator("figure.eval-chart-box").bounding_box()
    assert chart["width"] >= figure["width"] - 2
    context.close()


def test_a_click_on_a_point_of_the_graph_moves_the_board(browser, live_server, analysed):
    context, page = open_replay(browser, live_server, analysed, LAPTOP)
    chart = page.locator("svg.eval-chart").bounding_box()
    assert chart["width"] > 900  # full width, not 346 px
    page.locator('a.eval-point[href="?ply=17#replay"] .eval-hit').click()
    page.wait_for_url(re.compile(r"\?ply=17#replay$"))
    assert shown_ply(page) == 17
    current = page.locator("#move-list a[aria-current=step]")
    assert current.count() == 1 and current.get_attribute("href") == "?ply=17"
    assert "17" in page.locator(".diagram-info").inner_text()
    assert page.locator('a.eval-point[aria-current="step"]').get_attribute("href") == (
        "?ply=17#replay"
    )
    context.close()


def test_the_graphs_points_work_with_the_keyboard(browser, live_server, analysed):
    context, page = open_replay(browser, live_server, analysed, LAPTOP)
    first = page.locator("a.eval-point").first
    assert re.fullmatch(
        r"Move 1\. d \S+-\S+.*: [+\u22120-9.]+(, \w+)?", first.get_attribute("aria-label")
    )
    first.focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused.startswith("Move 1... ")  # the next point, the second ply
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"\?ply=2#replay$"))
    assert page.locator("#move-list a[aria-current=step]").get_attribute("href") == "?ply=2"
    context.close()


def test_a_worst_move_link_shows_the_better_move_on_the_board(browser, live_server, analysed):
    context, page = open_replay(browser, live_server, analysed, PHONE)
    link = page.locator(".analysis-worst a").first
    href = link.get_attribute("href")
    ply = int(re.search(r"ply=(\d+)", href).group(1))
    link.click()
    page.wait_for_url(re.compile(rf"\?ply={ply}&best=1#replay$"))
    note = page.locator(".better-note")
    assert note.is_visible() and "better move" in note.inner_text()
    better = re.search(r"The better move: (.+)", note.locator("strong").inner_text()).group(1)
    assert page.locator(".last-move strong").inner_text() == better
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


@pytest.mark.parametrize("language", ["en", *[p.values[0] for p in language_params()]])
def test_no_axe_violation_and_screenshots(browser, live_server, analysed, language):
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: list[Violation] = []
    path = reverse("games:replay", args=[analysed.pk])
    for viewport in (PHONE, LAPTOP):
        context, page = open_replay(browser, live_server, analysed, viewport, language)
        assert page.evaluate("document.documentElement.lang") == language
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        found += scan(page, "visitor", language, path)
        name = f"analysis-{language}-{viewport['width']}"
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
        for part in ("#move-list", ".analysis-sides", "figure.eval-chart-box"):
            page.evaluate(f"document.querySelector({part!r}).scrollIntoView()")
            page.screenshot(path=str(SHOTS / f"{name}-{part.split('.')[-1].lstrip('#')}.png"))
        page.goto(page.url.split("?")[0] + "?ply=2&best=1")
        found += scan(page, "visitor", language, path + "?best=1")
        context.close()
    assert not found, describe(found)


def test_a_cavalli_battles_replay_and_analysis_fit_and_pass_axe(browser, live_server):
    from tests.games.test_replay_analysis_http import cavalli_battle

    battle, _states = cavalli_battle()
    user = get_user_model().objects.create_user("asker", password="pw-asker-1234")
    analysis_runs.request_analysis(battle, user, now=timezone.now())
    analysis_runs.run_analysis(
        battle.pk, now=timezone.now(), clock=Tick(), read_now=timezone.now, ms=MS
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: list[Violation] = []
    path = reverse("games:replay", args=[battle.pk])
    for viewport in (PHONE, LAPTOP):
        context, page = open_replay(browser, live_server, battle, viewport)
        assert page.locator(".cavalli-board").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        found += scan(page, "visitor", "en", path)
        page.screenshot(
            path=str(SHOTS / f"analysis-cavalli-{viewport['width']}.png"), full_page=True
        )
        page.locator('a.eval-point[href="?ply=5#replay"] .eval-hit').click()
        page.wait_for_url(re.compile(r"\?ply=5#replay$"))
        assert page.locator("#move-list a[aria-current=step]").get_attribute("href") == "?ply=5"
        context.close()
    assert not found, describe(found)
