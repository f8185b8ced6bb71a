"""Result entry that survives the network (issue 25), in Debian's chromium.

Playwright's ``set_offline`` does not reach a service worker's own fetches in Chromium
(microsoft/playwright#2311): with ``PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS`` the
worker's requests are routed too, and ``go_offline`` aborts them as a dropped network
would, so a reload really comes from the worker's saved copy.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from games.battles.referee import referee_decision
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.browser.axe import describe, scan
from tests.factories import (
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.organising.personal_links import personal_path
from tournaments.results.entry import enter_result

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

WAIT_MS = 15_000
PHONE = {"width": 360, "height": 740}
FIELDS = ["battle1_first", "battle1_second", "battle2_first", "battle2_second"]
NUMBERS = [(30, 2, 12, 8), (20, 3, 15, 1), (5, 6, 7, 2)]
PREVIEW_OFFLINE = "Preview unavailable offline; the result will be checked when sent."


@pytest.fixture
def offline_browser(monkeypatch, request):
    """The ``browser`` fixture, started with the worker's requests routed (see above)."""
    monkeypatch.setenv("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    return request.getfixturevalue("browser")


@pytest.fixture
def hall():
    """A published round of four tables and two referees."""
    tournament = TournamentFactory(slug="wifi")
    ref1, ref2 = UserFactory(username="ref-one"), UserFactory(username="ref-two")
    tournament.referees.add(ref1, ref2)
    round_ = RoundFactory(tournament=tournament, number=2)
    entries = [
        EntryFactory(tournament=tournament, seed=i + 1, player=PlayerFactory()) for i in range(8)
    ]
    return [
        MatchFactory(
            round=round_, table=t + 1, player_a=entries[2 * t], player_b=entries[2 * t + 1]
        )
        for t in range(4)
    ]


def _abort_worker(route):
    if route.request.service_worker is not None:
        route.abort("internetdisconnected")
    else:
        route.continue_()


def go_offline(context):
    context.set_offline(True)
    context.route("**/*", _abort_worker)


def go_online(context):
    context.unroute("**/*", _abort_worker)
    context.set_offline(False)


def match_url(base, match):
    return base + reverse("referee_match", args=["wifi", match.pk])


def open_controlled(page, url):
    """Open ``url`` once the service worker controls the page, so it keeps a copy."""
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")


def enter(page, values):
    for field, value in zip(FIELDS, values, strict=True):
        page.fill(f"#result-panel input[name={field}]", str(value))
    page.click("button[name=enter]")


def assert_accessible(page):
    """axe finds nothing and nothing scrolls sideways, in the state the page is in now."""
    page.add_script_tag(content=AXE_SCRIPT)
    violations = scan(page, "referee", "en", page.url)
    assert not violations, describe(violations)
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def wait_saved(page, url):
    """Until the service worker has kept a copy of ``url``."""
    page.wait_for_function(SAVED_COPY, arg=[url, True], timeout=WAIT_MS)


def wait_not_saved(page, url):
    page.wait_for_function(SAVED_COPY, arg=[url, False], timeout=WAIT_MS)


SAVED_COPY = """([url, wanted]) => caches.open('thud-pages')
    .then(c => c.match(url)).then(hit => !!hit === wanted)"""


def count_text(page):
    return page.locator("#offline-count").inner_text()


def wait_for_versions(matches, count):
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if ResultVersion.objects.filter(match__in=matches).count() >= count:
            return
        time.sleep(0.1)
    raise AssertionError("the queued entries were not sent")


def test_three_entries_made_offline_survive_a_reload_and_are_sent_once(
    offline_browser, live_server, log_in, hall
):
    base = live_server.url
    context = offline_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(context, "ref-one")
    page = context.new_page()
    open_controlled(page, match_url(base, hall[0]))
    for match in hall[:3]:
        page.goto(match_url(base, match))  # the worker keeps each page the referee opens
    # A second tab is open too, on table 4's over-the-board clock page: both battles are
    # over, its survivors form (a plain form, no htmx) is there.
    battles = create_battles(hall[3], mode=Battle.Mode.OTB, now=timezone.now())
    for battle in battles:
        start_battle(battle.pk, now=timezone.now())
        referee_decision(battle.pk, reason="time", now=timezone.now())
    other = context.new_page()
    other.goto(base + reverse("games:referee_clock", args=[battles[0].pk]))

    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    go_offline(context)
    for match, values in zip(hall[:3], NUMBERS, strict=True):
        page.goto(match_url(base, match))
        # When it was saved, as the page's language writes it (day/month, 24 h), not the
        # browser's default (en-US: "12/2/2026, 1:13:29 AM").
        assert re.fullmatch(
            r"Offline: this page was saved at \d\d/\d\d/\d{4} \d\d:\d\d\.",
            page.locator("#offline-state").inner_text(),
        )
        if match == hall[0]:
            # The live score is the server's: offline, it says so instead of failing.
            page.fill("#result-panel input[name=battle1_first]", "30")
            page.wait_for_selector(f"#result-preview >> text={PREVIEW_OFFLINE}", timeout=WAIT_MS)
        enter(page, values)
        page.wait_for_selector("#offline-queue:not([hidden])", timeout=WAIT_MS)
    assert not errors, errors
    assert count_text(page) == "Not sent yet (3)"
    for field, value in zip(FIELDS, (25, 4, 18, 2), strict=True):
        other.fill(f"#survivors-form input[name={field}]", str(value))
    other.click("#survivors-form button[type=submit]")
    other.wait_for_selector("#offline-queue:not([hidden])", timeout=WAIT_MS)
    assert count_text(other) == "Not sent yet (4)"
    page.wait_for_function("document.getElementById('offline-count').textContent.includes('(4)')")
    page.focus("#offline-count")
    page.keyboard.press("Enter")  # the list opens by keyboard
    assert "Round 2, table 1: 30–2, 12–8" in page.locator("#offline-list").inner_text()
    assert_accessible(page)

    # A reload while still offline: the page comes from the worker, the entries stay.
    page.reload()
    assert "saved at" in page.locator("#offline-state").inner_text()
    assert count_text(page) == "Not sent yet (4)"
    assert not ResultVersion.objects.filter(match__in=hall).exists()
    queued = page.evaluate("localStorage.getItem('thud-offline-queue')")

    go_online(context)
    page.wait_for_selector("#offline-details[hidden]", state="attached", timeout=WAIT_MS)
    other.wait_for_selector("#offline-details[hidden]", state="attached", timeout=WAIT_MS)
    # Online again, the saved copy no longer says it is offline.
    page.wait_for_selector("#offline-queue[hidden]", state="attached", timeout=WAIT_MS)
    assert page.locator("#offline-state").inner_text() == ""
    wait_for_versions(hall, 4)
    assert hall[3].versions.get().survivors.as_tuple() == (25, 4, 18, 2)
    for match, values in zip(hall[:3], NUMBERS, strict=True):
        (version,) = match.versions.all()
        assert version.survivors.as_tuple() == values
        assert version.status == ResultVersion.Status.PENDING

    # That tab replays the very same entries again (as a tab without the lock might):
    # the server's keys answer as before and make nothing new.
    other.evaluate("q => localStorage.setItem('thud-offline-queue', q)", queued)
    other.reload()
    other.wait_for_selector("#offline-details[hidden]", state="attached", timeout=WAIT_MS)
    assert ResultVersion.objects.filter(match__in=hall).count() == 4

    # A second referee confirms all three.
    second = offline_browser.new_context()
    log_in(second, "ref-two")
    confirmer = second.new_page()
    for match in hall[:3]:
        confirmer.goto(match_url(base, match))
        confirmer.click("button[name=confirm]")
        confirmer.wait_for_selector('#result-panel [data-status="confirmed"]', timeout=WAIT_MS)
    statuses = set(
        Match.objects.filter(pk__in=[m.pk for m in hall[:3]]).values_list(
            "result_status", flat=True
        )
    )
    assert statuses == {Match.ResultStatus.CONFIRMED}


def test_a_queued_entry_and_confirmation_overtaken_meanwhile_are_shown_not_applied(
    offline_browser, live_server, log_in, hall
):
    base = live_server.url
    match = hall[0]
    ref2 = match.round.tournament.referees.get(username="ref-two")
    context = offline_browser.new_context()
    log_in(context, "ref-one")
    page = context.new_page()
    open_controlled(page, match_url(base, match))

    go_offline(context)
    enter(page, (30, 2, 12, 8))
    assert count_text(page) == "Not sent yet (1)"
    # Meanwhile the other referee enters different numbers.
    theirs = enter_result(
        match, survivors=(20, 2, 15, 3), by=ref2, expected_lock_version=0, now=timezone.now()
    )
    go_online(context)
    page.wait_for_selector("#conflict-choice", timeout=WAIT_MS)
    choice = page.locator("#conflict-choice").inner_text()
    assert "Your entry (not applied): 30–2, 12–8" in choice
    assert "Stored now: 20–2, 15–3" in choice
    assert_accessible(page)
    assert [v.pk for v in match.versions.all()] == [theirs.pk]
    assert page.locator("#offline-queue").is_hidden()

    # Now a confirmation of their version, queued offline, overtaken by a third entry.
    page.goto(match_url(base, match))
    go_offline(context)
    page.click("button[name=confirm]")
    assert count_text(page) == "Not sent yet (1)"
    enter_result(
        match,
        survivors=(1, 1, 1, 1),
        by=UserFactory(),
        expected_lock_version=1,
        now=timezone.now(),
    )
    go_online(context)
    page.wait_for_selector("#conflict-choice", timeout=WAIT_MS)
    assert (
        "Your confirmation of version 1 (not applied)"
        in page.locator("#conflict-choice").inner_text()
    )
    theirs.refresh_from_db()
    assert theirs.status == ResultVersion.Status.DISPUTED and theirs.confirmed_by is None
    assert json.loads(page.evaluate("localStorage.getItem('thud-offline-queue')")) == []

    # A confirmation sent after the session ended: the server answered with the log-in
    # page, the page takes it as a log-out (issue 40): the queue and the saved pages go,
    # and it says so.
    page.goto(match_url(base, match))
    wait_saved(page, match_url(base, match))
    go_offline(context)
    page.click("button[name=confirm] >> nth=0")
    assert count_text(page) == "Not sent yet (1)"
    Session.objects.all().delete()
    go_online(context)
    page.wait_for_selector(
        "#announcer >> text=Your session has ended", state="attached", timeout=WAIT_MS
    )
    assert page.locator("#offline-queue").is_hidden()
    assert page.evaluate("localStorage.getItem('thud-offline-queue')") is None
    wait_not_saved(page, match_url(base, match))
    assert match.versions.count() == 2
    assert Match.objects.get(pk=match.pk).result_status == Match.ResultStatus.DISPUTED

    # Logging out empties the saved pages: the next person on this phone sees none of them.
    log_in(context, "ref-one")
    page.goto(match_url(base, match))
    saved = "caches.open('thud-pages').then(c => c.keys()).then(ks => ks.map(r => r.url))"
    assert match_url(base, match) in page.evaluate(saved)
    page.locator(f"form[action='{reverse('logout')}'] button").click()
    page.wait_for_load_state()
    assert match_url(base, match) not in page.evaluate(saved)


def result_posts(page):
    """The results this page sends, as they leave it."""
    posts: list[str] = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.url)
            if request.method == "POST" and "/result" in request.url
            else None
        ),
    )
    return posts


@pytest.mark.parametrize("route", ["site", "admin"])
def test_after_a_log_out_by_any_route_the_next_person_sees_and_sends_nothing_of_the_last(
    offline_browser, live_server, log_in, hall, route
):
    """Issue 40, the shared device: a referee's entry is still waiting (the venue's Wi-Fi
    drops its POST) when they log out, on the site or in the admin; the next person on the
    device finds no entry, no saved page of theirs, and nothing is sent."""
    base = live_server.url
    match = hall[0]
    referee = match.round.tournament.referees.get(username="ref-one")
    referee.is_staff = route == "admin"  # the admin's log-out is for staff
    referee.save(update_fields=["is_staff"])
    context = offline_browser.new_context()
    log_in(context, "ref-one")
    page = context.new_page()
    open_controlled(page, match_url(base, match))
    wait_saved(page, match_url(base, match))

    go_offline(context)
    enter(page, (30, 2, 12, 8))
    assert count_text(page) == "Not sent yet (1)"
    result_url = base + reverse("referee_result", args=["wifi", match.pk])
    context.route(result_url, lambda r: r.abort("connectionreset"))
    with page.expect_event("requestfailed", timeout=WAIT_MS):
        go_online(context)  # it tries at once, and fails on the way
    assert count_text(page) == "Not sent yet (1)"

    if route == "site":
        page.locator(f"form[action='{reverse('logout')}'] button").click()
    else:
        page.goto(base + reverse("admin:index"))
        page.click("#logout-form button")
    page.wait_for_url(base + reverse("home"), timeout=WAIT_MS)
    page.wait_for_function("localStorage.getItem('thud-offline-queue') === null", timeout=WAIT_MS)
    wait_not_saved(page, match_url(base, match))
    context.unroute(result_url)

    log_in(context, "ref-two")
    posts = result_posts(page)
    page.goto(match_url(base, match))
    assert page.locator("#offline-queue").is_hidden()
    assert count_text(page) == "Not sent yet (0)"
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as when the network returns
    page.reload()
    assert posts == []
    assert not match.versions.exists()


def test_an_entry_queued_by_someone_else_on_the_device_is_never_sent_and_only_discarded(
    offline_browser, live_server, log_in, hall
):
    """Issue 40: a second person logs in over the first one's session (another tab, the
    admin's log-in) while the first one's entry waits. The first one's page, still open,
    sends it with the second person's session: the server refuses it. On the second
    person's pages it is "entered by someone else on this device, not sent", with neither
    its match nor its numbers, no way to send it, and a discard that asks first."""
    base = live_server.url
    match = hall[0]
    context = offline_browser.new_context()
    log_in(context, "ref-one")
    page = context.new_page()
    open_controlled(page, match_url(base, match))
    go_offline(context)
    enter(page, (30, 2, 12, 8))
    assert count_text(page) == "Not sent yet (1)"

    log_in(context, "ref-two")
    go_online(context)
    page.wait_for_selector("#offline-list >> text=Not accepted", state="attached", timeout=WAIT_MS)
    assert not match.versions.exists()

    posts = result_posts(page)
    page.goto(match_url(base, match))
    page.wait_for_selector(
        "#offline-list >> text=Entered by someone else on this device, not sent",
        state="attached",
        timeout=WAIT_MS,
    )
    assert count_text(page) == "Not sent yet (1)"
    listed = page.locator("#offline-list").text_content()
    assert "30–2" not in listed and "Round 2" not in listed
    assert page.locator("#offline-list a").count() == 0
    assert page.locator("#offline-send").is_hidden()
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as when the network returns
    page.reload()
    assert count_text(page) == "Not sent yet (1)"

    page.click("#offline-count")
    page.click("#offline-list [data-discard]")
    assert (
        "Discard this entry? It will not be sent." in page.locator("#confirm-dialog").inner_text()
    )
    page.click("#confirm-dialog-ok")
    page.wait_for_selector("#offline-details[hidden]", state="attached", timeout=WAIT_MS)
    assert page.evaluate("JSON.parse(localStorage.getItem('thud-offline-queue'))") == []
    assert posts == []
    assert not match.versions.exists()


def test_a_personal_link_page_is_never_saved_and_does_not_open_offline(
    offline_browser, live_server, hall
):
    """It answers ``private, no-store``: the worker keeps no copy of it, while it keeps the
    page opened right after; offline, a revoked (or any) personal link does not open."""
    base = live_server.url
    context = offline_browser.new_context()
    page = context.new_page()
    open_controlled(page, base + reverse("home"))
    personal = base + personal_path(hall[0].player_a)
    page.goto(personal)
    after = base + reverse("home") + "?after=1"
    page.goto(after)
    wait_saved(page, after)
    assert not page.evaluate(SAVED_COPY, [personal, True])

    go_offline(context)
    with pytest.raises(PlaywrightError):
        page.goto(personal)
