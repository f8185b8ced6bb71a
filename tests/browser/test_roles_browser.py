"""Each role reaches its tasks from ``/`` by clicking only, on a 360 × 740 phone.

After every page load the test checks that the page never scrolls sideways
(``scrollWidth`` within the phone's 360 px) and that the console logged no error. Screenshots of
each home page and of the pages on the way go to ``test-output/browser/``.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.claims import make_claim
from games.battles.referee import pause
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import (
    PASSWORD,
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models.people import Player
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.results.entry import confirm_result, enter_result

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
WAIT_MS = 20_000
# The live stream needs uvicorn (tests/browser/test_battle_browser.py runs one); the
# live_server here answers it with an empty stream that asks not to be retried soon.
EMPTY_STREAM = {"status": 200, "content_type": "text/event-stream", "body": "retry: 600000\n\n"}
# htmx's SSE extension logs the EventSource's error event when that stand-in stream
# closes; it is the only console message these tests expect and ignore.
STAND_IN_STREAM_CLOSED = "[object Event]"


class Phone:
    """A browser page at phone size that records console errors."""

    def __init__(self, browser, base: str, screenshot, name: str, viewport=PHONE) -> None:
        self.context = browser.new_context(
            viewport=viewport, is_mobile=viewport is PHONE, has_touch=viewport is PHONE
        )
        self.context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.base, self.shot, self.name, self.step = base, screenshot, name, 0

    def _console(self, message) -> None:
        if message.type == "error" and message.text != STAND_IN_STREAM_CLOSED:
            self.errors.append(message.text)

    def check(self, label: str) -> None:
        """No sideways scrolling, no console error; a screenshot of the page."""
        self.page.wait_for_load_state("load")
        width = self.page.evaluate("document.documentElement.scrollWidth")
        # Not window.innerWidth: an emulated phone widens its layout viewport to fit
        # content that overflows, so innerWidth grows with the very overflow we look for.
        inner = self.page.viewport_size["width"]
        assert width <= inner, f"{self.page.url} scrolls sideways ({width} > {inner})"
        assert self.errors == [], f"console errors on {self.page.url}: {self.errors}"
        self.step += 1
        self.shot(self.page, f"roles-{self.name}-{self.step}-{label}")

    def click(self, selector: str, label: str) -> None:
        target = self.page.locator(selector).first
        self.open_menu_for(target)
        target.click()
        self.check(label)

    def open_menu_for(self, target) -> None:
        """A link of the site's navigation is behind the menu button on a phone: press it
        first, as a person would."""
        if target.is_hidden() and target.evaluate("el => !!el.closest('#site-nav')"):
            self.page.click(".menu-button")

    def log_in(self, username: str) -> None:
        self.page.goto(self.base + "/")
        self.check("public-home")
        self.click("header a:has-text('Log in')", "login")
        self.page.fill("input[name=username]", username)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.click("form.account-form button[type=submit]")
        self.page.wait_for_url(lambda url: "/accounts/login" not in url, timeout=WAIT_MS)
        self.check("home")

    def log_out(self) -> None:
        self.click("header button:has-text('Log out')", "logged-out")
        self.page.wait_for_load_state("load")


def event_with_two_tables(**fields):
    t = TournamentFactory(name="Koom Valley Open", status=Tournament.Status.RUNNING, **fields)
    entries = [
        EntryFactory(tournament=t, seed=i + 1, player=PlayerFactory(name=name))
        for i, name in enumerate(["Agnes Nitt", "Detritus", "Cheery Littlebottom", "Brick"])
    ]
    round_ = RoundFactory(tournament=t, number=1)
    m1 = MatchFactory(round=round_, table=1, player_a=entries[0], player_b=entries[1])
    m2 = MatchFactory(round=round_, table=2, player_a=entries[2], player_b=entries[3])
    return t, m1, m2


def test_referee_enters_and_a_second_referee_confirms_by_clicking(browser, live_server, screenshot):
    t, m1, _m2 = event_with_two_tables()
    ref1, ref2 = UserFactory(username="ref-one"), UserFactory(username="ref-two")
    t.referees.add(ref1, ref2)

    one = Phone(browser, live_server.url, screenshot, "referee-enters")
    one.log_in("ref-one")
    one.click("#home-referee a:has-text('All tables')", "round")
    one.click(f"#match-{m1.pk} a", "match")
    for field, value in [
        ("battle1_first", "20"),
        ("battle1_second", "2"),
        ("battle2_first", "12"),
        ("battle2_second", "3"),
    ]:
        one.page.fill(f"#result-panel input[name={field}]", value)
    one.page.wait_for_selector("#result-preview >> text=Agnes Nitt wins", timeout=WAIT_MS)
    one.page.click("button[name=enter]")
    one.page.wait_for_selector('#result-panel [data-status="entered"]', timeout=WAIT_MS)
    one.check("entered")
    one.log_out()

    two = Phone(browser, live_server.url, screenshot, "referee-confirms")
    two.log_in("ref-two")
    two.click("#home-referee a:has-text('1 to confirm')", "round-filtered")
    two.click(f"#match-{m1.pk} a", "match")
    two.page.click("button[name=confirm]")
    two.page.wait_for_selector('#result-panel [data-status="confirmed"]', timeout=WAIT_MS)
    two.check("confirmed")
    version = Match.objects.get(pk=m1.pk).confirmed_version
    assert version.survivors.as_tuple() == (20, 2, 12, 3)
    assert (version.entered_by_id, version.confirmed_by_id) == (ref1.pk, ref2.pk)
    assert version.status == ResultVersion.Status.CONFIRMED


def test_referee_opens_a_waiting_battle_from_home_and_resumes_it(browser, live_server, screenshot):
    t, m1, _m2 = event_with_two_tables(variant=Tournament.Variant.QUICKFIRE_24)
    referee = UserFactory(username="ref-clock")
    t.referees.add(referee)
    b1, _b2 = create_battles(m1, mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    pause(b1.pk, now=timezone.now())

    phone = Phone(browser, live_server.url, screenshot, "referee-resumes")
    phone.log_in("ref-clock")
    phone.click("#home-referee a[href*='/battles/referee/']", "clock")
    phone.page.click("#referee-panel button:has-text('Resume')")
    phone.page.wait_for_selector("#referee-panel #moved", timeout=WAIT_MS)
    phone.check("resumed")
    assert Battle.objects.get(pk=b1.pk).status == Battle.Status.RUNNING


def test_player_starts_their_quickfire_battle_from_home(browser, live_server, screenshot):
    t, m1, _m2 = event_with_two_tables(variant=Tournament.Variant.QUICKFIRE_24)
    agnes = UserFactory(username="agnes")
    player = m1.player_a.player
    player.user = agnes
    player.save()

    phone = Phone(browser, live_server.url, screenshot, "player-plays")
    phone.log_in("agnes")
    assert "Detritus" in phone.page.inner_text("#home-player")
    phone.click("#home-player a:has-text('Play')", "match")
    phone.click("button:has-text('Play online')", "battle")
    phone.page.wait_for_selector("#board-panel", timeout=WAIT_MS)
    assert "Agnes Nitt" in phone.page.inner_text("h1")
    phone.check("board")
    assert Battle.objects.get(match=m1, number=1).status == Battle.Status.RUNNING


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_home_page_of_each_role_fits_and_is_captured(browser, live_server, screenshot, viewport):
    t, m1, _m2 = event_with_two_tables(variant=Tournament.Variant.QUICKFIRE_24)
    referee, player = UserFactory(username="ref-home"), UserFactory(username="player-home")
    t.referees.add(referee)
    m1.player_b.player.user = player
    m1.player_b.player.save()
    t.owner.username = "org-home"
    t.owner.save()
    size = "phone" if viewport is PHONE else "desktop"
    for username in ("org-home", "ref-home", "player-home"):
        view = Phone(browser, live_server.url, screenshot, f"home-{username}-{size}", viewport)
        view.log_in(username)
        view.context.close()


def test_organiser_reorders_tiebreaks_appoints_a_referee_approves_a_claim_and_pairs(
    browser, live_server, screenshot
):
    t, m1, m2 = event_with_two_tables()
    t.owner.username = "org-flow"
    t.owner.save()
    for match in (m1, m2):
        v = enter_result(
            match,
            survivors=(20, 2, 12, 3),
            by=UserFactory(),
            expected_lock_version=0,
            now=timezone.now(),
        )
        confirm_result(
            match, version_id=v.pk, by=UserFactory(), expected_lock_version=1, now=timezone.now()
        )
    claimant = UserFactory(username="brick-account")
    make_claim(user=claimant, player=m2.player_b.player)
    UserFactory(username="new-ref")

    org = Phone(browser, live_server.url, screenshot, "organiser")
    org.log_in("org-flow")
    org.click("#home-organiser a:has-text('Koom Valley Open')", "dashboard")
    org.click("nav.tabs a:has-text('Settings')", "settings")
    org.click("button[aria-label='Move Differential down']", "tiebreak-moved")
    org.page.wait_for_function(
        "document.querySelector('#tiebreak-order li:nth-child(2)').innerText.includes('Buchholz')"
    )
    assert Tournament.objects.get(pk=t.pk).tiebreak_order[1:3] == ["buchholz", "differential"]

    org.click("header a:has-text('Claims')", "claims")
    org.click("button:has-text('Approve')", "claim-approved")
    assert Player.objects.get(pk=m2.player_b.player_id).user_id == claimant.pk

    org.click("header a:has-text('Home')", "home-again")
    org.click("#home-organiser a:has-text('Koom Valley Open')", "dashboard-again")
    form = org.page.locator("form[action$='/referees/']")
    form.locator("input[name=username]").fill("new-ref")
    form.locator("button[type=submit]").click()
    org.check("referee-appointed")
    assert t.referees.filter(username="new-ref").exists()

    org.click("header a:has-text('Home')", "home-pair")
    org.click("#home-organiser a:has-text('Pair round 2')", "dashboard-pair")
    org.click("button:has-text('Pair round 2')", "round-2")
    assert t.round_set.filter(number=2).exists()
    org.click("a[href$='/print/slips/']", "result-slips")  # two wide tables fit a phone
