"""axe-core on every page each role reaches from ``/``, in every language, at both widths.

WCAG 2.2 AA as far as axe can measure it (issue 22): the tags ``wcag2a``, ``wcag2aa``,
``wcag21a``, ``wcag21aa`` and ``wcag22aa`` must report no violation on any page that the
anonymous visitor, a player, a referee, the organiser or a site administrator reaches by
following links from ``/`` over the demo data (``load_demo``), in English, Italian and
Norwegian, at 390 × 844 and 1366 × 768. The same axe run also applies its structure
rules that WCAG's tags leave out (``STRUCTURE_RULES``: one h1, ordered headings, unique
landmarks, no empty table header). At 390 px no page may be wider than the phone (scroll
sideways).

How it stays within its time budget (two shared cores):

- one test per role, so the two lanes of ``make test`` share the crawl out;
- the link graph is crawled once per role with Django's test client (``tests/crawler.py``,
  the crawler of ``tests/thud_site/test_crawl.py``: same site, GET only, no ``/admin/``, no
  event streams, no downloads), keeping at most ``PER_VIEW`` URLs per Django URL name,
  since pages that differ only by an id share their template;
- the session's chromium serves every role; axe is injected by ``add_init_script`` (once
  per page, not once per scan), and both widths are scanned on one loaded page by resizing.

A failure lists every violation grouped by rule, then by page and targets, with the roles,
languages and widths where it was seen; ``test-output/axe/`` keeps the whole report.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.browser.axe import AXE_SCRIPT, EMPTY_STREAM, Violation, describe, scan, summarise
from tests.browser.keyboard import tab_to
from tests.crawler import DOWNLOADS, crawl, view_name
from tests.play.league_support import bot, ended
from tournaments.models.rounds import Match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(1200),  # the largest role: ~100 s alone, more with the machine busy
]

ROLES = {
    "anonymous": None,
    "player": "player1",
    "referee": "referee1",
    "organiser": "organiser",
    "site administrator": "siteadmin",
}
LANGUAGES = [code for code, _name in settings.LANGUAGES]
PHONE = 390
VIEWPORTS = [{"width": 1366, "height": 768}, {"width": PHONE, "height": 844}]
SCROLL_WIDTH = "document.documentElement.scrollWidth"
PER_VIEW = 3  # URLs kept per Django URL name and role
NEXT_FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
REPORT = Path(__file__).resolve().parents[2] / "test-output" / "axe"
WAIT_MS = 20_000
DEMO = "ankh-morpork-open"


def pages_of(client: Client) -> list[str]:
    """The HTML pages reachable from ``/``, breadth first, ``PER_VIEW`` per URL name;
    not the links that choose a page's language (``?lang=``): every page is scanned in
    every language anyway, and such a link would override the language under test."""
    pages = crawl(client, per_view=PER_VIEW, downloads=False).pages
    return [path for path in pages if "lang" not in parse_qs(urlsplit(path).query)]


def role_client(username: str | None) -> Client:
    client = Client()
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    return client


class AxeViolations(AssertionError):
    """axe found violations on a page: told apart from a crawl that breaks (a page that
    fails to load, a language that does not switch), which fails as itself."""


@pytest.fixture
def battles(demo):
    """The quickfire cup's first match played over the board: its battle pages, the
    referee's clock, the diagram and the replay are then reachable by links."""
    match = Match.objects.filter(round__tournament__slug="quickfire-cup").order_by("table")[0]
    create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    # Two bots' rated match: the engine league's tables are scanned, not its empty state.
    ended(bot(username="hex"), bot(username="bromide"), ended_at=timezone.now(), diff=4)


@pytest.mark.parametrize("role", ROLES)
def test_no_axe_violation_on_any_page_of_a_role_in_any_language_or_width(
    browser, live_server, battles, log_in, role
):
    started = time.monotonic()
    base, username = live_server.url, ROLES[role]
    violations: list[Violation] = []
    paths = pages_of(role_client(username))
    scans = 0
    too_wide: list[str] = []  # pages that scroll sideways on a phone
    for language in LANGUAGES:
        context = browser.new_context(viewport=VIEWPORTS[0])
        log_in(context, username)
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
        )
        context.add_init_script(AXE_SCRIPT)
        context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
        page = context.new_page()
        for path in paths:
            page.goto(base + path, wait_until="load", timeout=WAIT_MS)
            assert page.evaluate("document.documentElement.lang") == language, path
            for _ in VIEWPORTS:
                violations += scan(page, role, language, path)
                width = page.viewport_size["width"]
                if width == PHONE and (wide := page.evaluate(SCROLL_WIDTH)) > width:
                    too_wide.append(f"{path} ({language}): {wide} px")
                scans += 1
                other = next(v for v in VIEWPORTS if v["width"] != page.viewport_size["width"])
                page.set_viewport_size(other)
                # The page's own resize handlers run first, as they would for a person.
                page.evaluate(NEXT_FRAMES)
        context.close()
    summary = summarise(violations, {role: len(paths)}, scans, time.monotonic() - started)
    REPORT.mkdir(parents=True, exist_ok=True)
    name = role.replace(" ", "-")
    (REPORT / f"{name}.txt").write_text(summary + "\n\n" + describe(violations) + "\n")
    (REPORT / f"{name}.json").write_text(json.dumps([asdict(v) for v in violations], indent=1))
    print(summary)
    assert scans == 2 * len(LANGUAGES) * len(paths)
    assert len(paths) > 5, paths  # the crawl went somewhere
    if violations:
        raise AxeViolations(describe(violations, roles=ROLES))
    assert not too_wide, f"wider than a {PHONE} px phone: " + "; ".join(too_wide)


def test_crawl_keeps_html_pages_of_the_site_and_at_most_three_per_url_name(demo):
    client, fetched = role_client("organiser"), []
    get = client.get
    client.get = lambda path, *args, **kwargs: fetched.append(path) or get(path, *args, **kwargs)
    paths = pages_of(client)
    per_view = Counter(view_name(path) for path in paths)
    assert max(per_view.values()) <= PER_VIEW, per_view.most_common(3)
    assert len(paths) == len(set(paths))
    assert reverse("standings", args=[DEMO]) in paths
    assert reverse("organiser_new") in paths
    # The ratings list (site nav) and a player's rating page (from it) are scanned too.
    assert "ratings" in per_view and "player_ratings" in per_view, per_view
    # The engine league (from the play statistics in the site nav) is scanned too.
    assert "play:league" in per_view, per_view
    assert set(paths) <= set(fetched)
    # Never even fetched: the admin is not ours, a stream never ends, a PDF takes seconds.
    skipped = [
        p for p in fetched if p.startswith("/admin/") or p.endswith((*DOWNLOADS, "/events/"))
    ]
    assert skipped == []


def test_anonymous_visitor_reaches_the_standings_from_home_by_keyboard_only(
    browser, live_server, demo
):
    page = browser.new_context(viewport=VIEWPORTS[1], is_mobile=True).new_page()
    page.goto(live_server.url + "/", wait_until="load")
    tournament = page.locator(f"#home-public a[href='{reverse('tournament', args=[DEMO])}']")
    presses = tab_to(page, tournament)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{reverse('tournament', args=[DEMO])}", timeout=WAIT_MS)
    standings = page.locator(f"nav.tabs a[href='{reverse('standings', args=[DEMO])}']")
    presses += tab_to(page, standings)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{reverse('standings', args=[DEMO])}", timeout=WAIT_MS)
    assert "Standings" in page.locator("h1").inner_text()
    assert presses <= 30, f"{presses} presses of Tab to reach the standings"


KEYBOARD_PAGE = """<!doctype html><html lang="en"><title>t</title>
<style>{style}</style><a href="#a">one</a> <a href="#b">two</a> <button id="go">go</button>"""


@pytest.mark.parametrize(
    ("style", "shown"),
    [
        ("", True),  # the browser's own focus ring
        (":focus { outline: none; box-shadow: 0 0 0 3px #000; }", True),
        (":focus { outline: none; }", False),
        (":focus { outline: 0 solid red; }", False),
    ],
)
def test_tab_to_counts_presses_and_checks_the_focus_indicator(browser, style, shown):
    page = browser.new_context().new_page()
    page.set_content(KEYBOARD_PAGE.format(style=style))
    if shown:
        assert tab_to(page, page.locator("#go")) == 3
    else:
        with pytest.raises(AssertionError, match="no focus indicator"):
            tab_to(page, page.locator("#go"))


def test_tab_to_fails_naming_the_focus_path_when_out_of_presses(browser):
    page = browser.new_context().new_page()
    page.set_content(KEYBOARD_PAGE.format(style=""))
    with pytest.raises(AssertionError, match=r"not reached in 2 presses.*one.*two"):
        tab_to(page, page.locator("#go"), max_presses=2)
