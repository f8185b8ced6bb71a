"""A Battaglia di Cavalli tournament's pages on a 360 px phone: the referee clock's result
form (the game's labels, a number over Cavalli's limit refused beside its field, then the
points entered), the result slips, the round tables, the printed pairings and the
statistics. None scrolls sideways and none speaks of dwarfs or trolls.
Screenshots go to test-output/browser/."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.referee import referee_decision
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.browser.test_referee_browser import WAIT_MS, log_in
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models.results import ResultVersion
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

PHONE = {"width": 360, "height": 740}
THUD_WORDS = re.compile(r"dwarf|troll|surviv", re.IGNORECASE)


def fits_and_says_no_thud_words(page, url: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{url} scrolls sideways ({width} px)"
    assert not THUD_WORDS.search(page.inner_text("main")), url


def test_cavalli_tournament_pages_on_a_phone(browser, live_server, screenshot):
    organiser = UserFactory(username="organiser-c")
    referee = UserFactory(username="referee-c")
    t = TournamentFactory(name="Palio Cup", slug="palio", owner=organiser, game="cavalli")
    t.referees.add(referee)
    for seed, name in enumerate(["Bartolomeo Colleoni", "Gattamelata", "Sforza", "Hawkwood"]):
        EntryFactory(tournament=t, seed=seed + 1, player=PlayerFactory(name=name))
    match = (
        publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
        .matches.order_by("table")
        .first()
    )
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    for b in (b1, b2):
        start_battle(b.pk, now=timezone.now())
        referee_decision(b.pk, reason="time", now=timezone.now())
    base = live_server.url

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    # The clock's event stream never ends: on the test's WSGI server it would hold a
    # server thread for good. Nothing here waits for a clock event.
    context.route("**/events/", lambda route: route.abort())
    page = context.new_page()
    log_in(page, base, "referee-c")
    clock = reverse("games:referee_clock", args=[b1.pk])
    page.goto(base + clock)
    page.wait_for_selector("#survivors-form", timeout=WAIT_MS)
    fits_and_says_no_thud_words(page, clock)
    assert page.get_attribute("input[name=battle1_first]", "max") == "4950"
    # Over Cavalli's limit: the browser's own check is bypassed to reach the server's.
    page.evaluate("document.querySelector('#survivors-form').noValidate = true")
    for field, value in [
        ("battle1_first", "3100"),
        ("battle1_second", "1200"),
        ("battle2_first", "2500"),
        ("battle2_second", "5000"),
    ]:
        page.fill(f"input[name={field}]", value)
    page.click("#survivors-form button[type=submit]")
    page.wait_for_selector("#survivors-form .errorlist", timeout=WAIT_MS)
    assert "4950" in page.inner_text("#survivors-form .errorlist")
    assert not ResultVersion.objects.filter(match=match).exists()
    fits_and_says_no_thud_words(page, clock)
    screenshot(page, "cavalli-referee-clock-refused")
    page.fill("input[name=battle2_second]", "4950")
    page.click("#survivors-form button[type=submit]")
    page.wait_for_url(f"**{clock}", timeout=WAIT_MS)
    version = ResultVersion.objects.get(match=match)
    assert version.survivors.as_tuple() == (3100, 1200, 2500, 4950)

    context.clear_cookies()
    log_in(page, base, "organiser-c")
    pages = {
        "slips": reverse("organiser_round_print", args=["palio", 1, "slips"]),
        "printed-pairings": reverse("organiser_round_print", args=["palio", 1, "pairings"]),
        "organiser-round": reverse("organiser_round", args=["palio", 1]),
        "pairings": reverse("round_pairings", args=["palio", 1]),
        "stats": reverse("tournament_stats", args=["palio"]),
    }
    for name, url in pages.items():
        page.goto(base + url)
        page.wait_for_load_state("load")
        fits_and_says_no_thud_words(page, url)
        screenshot(page, f"cavalli-{name}")
    context.close()
