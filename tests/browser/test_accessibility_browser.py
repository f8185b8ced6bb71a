"""axe-core on every page each role reaches from ``/``, in every language, at both widths.

WCAG 2.2 AA as far as axe can measure it (issue 22): the tags ``wcag2a``, ``wcag2aa``,
``wcag21a``, ``wcag21aa`` and ``wcag22aa`` must report no violation on any page that the
anonymous visitor, a player, a referee, the organiser or a site administrator reaches by
following links from ``/`` over the demo data (``load_demo``), in English, Italian and
Norwegian, at 390 × 844 and 1366 × 768. The same axe run also applies its structure
rules that WCAG's tags leave out (``STRUCTURE_RULES``: one h1, ordered headings, unique
landmarks, no empty table header).

How it stays within its time budget (two shared cores):

- the link graph is crawled once per role with Django's test client (the same rules as
  ``tests/thud_site/test_crawl.py``: same site, GET only, no ``/admin/``, no event streams,
  no downloads), keeping at most ``PER_VIEW`` URLs per Django URL name, since pages that
  differ only by an id share their template;
- one chromium serves every role; axe is injected by ``add_init_script`` (once per page,
  not once per scan), and both widths are scanned on one loaded page by resizing it.

A failure lists every violation grouped by rule, then by page and targets, with the roles,
languages and widths where it was seen; ``test-output/axe/`` keeps the whole report.
"""

from __future__ import annotations

import json
import textwrap
import time
from collections import Counter, defaultdict, deque
from dataclasses import asdict, dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.browser.keyboard import tab_to
from tournaments.models.rounds import Match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(2400),  # the crawl: ~330 s alone, 900+ s with the machine busy
]

AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    # Only the violations come back in full: the other result types keep one node each.
    "resultTypes": ["violations"],
}
# Beyond the WCAG tags (issue 22): one h1 and ordered headings, unique landmarks and one
# main, no empty table header. axe files these rules under best practice.
STRUCTURE_RULES = [
    "page-has-heading-one",
    "heading-order",
    "empty-heading",
    "landmark-unique",
    "landmark-one-main",
    "landmark-no-duplicate-banner",
    "landmark-no-duplicate-main",
    "empty-table-header",
]
ROLES = {
    "anonymous": None,
    "player": "player1",
    "referee": "referee1",
    "organiser": "organiser",
    "site administrator": "siteadmin",
}
LANGUAGES = [code for code, _name in settings.LANGUAGES]
VIEWPORTS = [{"width": 1366, "height": 768}, {"width": 390, "height": 844}]
PER_VIEW = 3  # URLs kept per Django URL name and role
NEXT_FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
MAX_PAGES = 250  # per role: a runaway crawl stops here
DOWNLOADS = (".pdf", ".csv", ".txt", ".json")
REPORT = Path(__file__).resolve().parents[2] / "test-output" / "axe"
# The live stream needs the ASGI server; the live_server answers with an empty stream
# that asks not to be retried soon (as in test_roles_browser.py).
EMPTY_STREAM = {"status": 200, "content_type": "text/event-stream", "body": "retry: 600000\n\n"}
WAIT_MS = 20_000
DEMO = "ankh-morpork-open"


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def view_name(path: str) -> str:
    try:
        return resolve(urlsplit(path).path).view_name
    except Resolver404:
        return path


def same_site_path(base: str, href: str) -> str | None:
    """The path (and query) of a link worth scanning, or None to leave it."""
    target = urlsplit(urljoin(base, href))
    if target.scheme not in ("http", "https", "") or target.netloc not in ("", "testserver"):
        return None
    path = target.path + (f"?{target.query}" if target.query else "")
    if path.startswith("/admin/") or target.path.endswith("/events/"):
        return None
    if target.path.endswith(DOWNLOADS):
        return None
    return path


def crawl(client: Client) -> list[str]:
    """The HTML pages reachable from ``/``, breadth first, ``PER_VIEW`` per URL name."""
    pages: list[str] = []
    seen: set[str] = {"/"}
    per_view: Counter[str] = Counter()
    queue = deque(["/"])
    while queue and len(pages) < MAX_PAGES:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        pages.append(url)
        parser = Links()
        parser.feed(response.content.decode())
        for href in parser.hrefs:
            path = same_site_path(url, href)
            if path is None or path in seen:
                continue
            seen.add(path)
            name = view_name(path)
            if per_view[name] >= PER_VIEW:
                continue
            per_view[name] += 1
            queue.append(path)
    return pages


@dataclass(frozen=True)
class Violation:
    role: str
    language: str
    width: int
    page: str
    rule: str
    impact: str
    help: str
    nodes: int
    targets: tuple[str, ...]


def scan(page, role: str, language: str, path: str) -> list[Violation]:
    found = []
    results = page.evaluate(
        """([tags, extra, types]) => axe.run(document, {
            runOnly: {type: "rule", values: axe.getRules(tags).map(r => r.ruleId).concat(extra)},
            resultTypes: types,
        })""",
        [AXE_OPTIONS["runOnly"]["values"], STRUCTURE_RULES, AXE_OPTIONS["resultTypes"]],
    )
    width = page.viewport_size["width"]
    for v in results["violations"]:
        targets = tuple(" ".join(map(str, node["target"])) for node in v["nodes"][:3])
        found.append(
            Violation(
                role,
                language,
                width,
                path,
                v["id"],
                v["impact"] or "",
                v["help"],
                len(v["nodes"]),
                targets,
            )
        )
    return found


def describe(violations: list[Violation]) -> str:
    """Grouped by rule, then by the targets axe names; each page with the roles that saw it."""
    by_rule: dict[str, list[Violation]] = defaultdict(list)
    for v in violations:
        by_rule[v.rule].append(v)
    lines = [f"{len(violations)} axe violations (rule × page × role × language × width):"]
    for rule, found in sorted(by_rule.items(), key=lambda item: -len(item[1])):
        lines.append(f"\n{rule} ({found[0].impact}): {found[0].help} — {len(found)} times")
        by_targets: dict[tuple[str, ...], list[Violation]] = defaultdict(list)
        for v in found:
            by_targets[v.targets].append(v)
        for targets, seen in sorted(by_targets.items(), key=lambda item: -len(item[1])):
            languages = " ".join(sorted({v.language for v in seen}))
            widths = " ".join(str(w) for w in sorted({v.width for v in seen}))
            lines.append(f"  {' | '.join(targets)}  [{languages}; {widths} px] on:")
            roles_on: dict[str, set[str]] = defaultdict(set)
            for v in seen:
                roles_on[v.page].add(v.role)
            where = [
                page + ("" if len(roles) == len(ROLES) else f" ({', '.join(sorted(roles))})")
                for page, roles in sorted(roles_on.items())
            ]
            lines += textwrap.wrap(
                ", ".join(where),
                width=100,
                initial_indent="    ",
                subsequent_indent="    ",
                break_on_hyphens=False,
                break_long_words=False,
            )
    return "\n".join(lines)


def summarise(
    violations: list[Violation], pages: dict[str, int], scans: int, seconds: float
) -> str:
    by_rule = Counter(v.rule for v in violations)
    by_role = Counter(v.role for v in violations)
    nodes = Counter()
    for v in violations:
        nodes[v.rule] += v.nodes
    return "\n".join(
        [
            f"pages per role: {pages}",
            f"scans: {scans} in {seconds:.0f} s",
            f"violations: {len(violations)} (rule × page × role × language × width)",
            "by rule: "
            + ", ".join(f"{r} {n} ({nodes[r]} nodes)" for r, n in by_rule.most_common()),
            "by role: " + ", ".join(f"{r} {n}" for r, n in by_role.most_common()),
        ]
    )


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


def test_no_axe_violation_on_any_page_any_role_language_or_width(
    browser, live_server, battles, log_in
):
    started = time.monotonic()
    base = live_server.url
    violations: list[Violation] = []
    pages: dict[str, int] = {}
    scans = 0
    for role, username in ROLES.items():
        paths = crawl(role_client(username))
        pages[role] = len(paths)
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
                    scans += 1
                    other = next(v for v in VIEWPORTS if v["width"] != page.viewport_size["width"])
                    page.set_viewport_size(other)
                    # The page's own resize handlers run first, as they would for a person.
                    page.evaluate(NEXT_FRAMES)
            context.close()
    seconds = time.monotonic() - started
    summary = summarise(violations, pages, scans, seconds)
    REPORT.mkdir(parents=True, exist_ok=True)
    (REPORT / "summary.txt").write_text(summary + "\n\n" + describe(violations) + "\n")
    (REPORT / "violations.json").write_text(json.dumps([asdict(v) for v in violations], indent=1))
    print(summary)
    assert scans == 2 * len(LANGUAGES) * sum(pages.values())
    assert all(n > 5 for n in pages.values()), pages  # every crawl went somewhere
    if violations:
        raise AxeViolations(describe(violations))


def test_crawl_keeps_html_pages_of_the_site_and_at_most_three_per_url_name(demo):
    client, fetched = role_client("organiser"), []
    get = client.get
    client.get = lambda path, *args, **kwargs: fetched.append(path) or get(path, *args, **kwargs)
    paths = crawl(client)
    per_view = Counter(view_name(path) for path in paths)
    assert max(per_view.values()) <= PER_VIEW, per_view.most_common(3)
    assert len(paths) == len(set(paths))
    assert reverse("standings", args=[DEMO]) in paths
    assert reverse("organiser_new") in paths
    # The ratings list (site nav) and a player's rating page (from it) are scanned too.
    assert "ratings" in per_view and "player_ratings" in per_view, per_view
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
