"""The knockout bracket on a 360 px phone and in print: the page never scrolls sideways
(the bracket scrolls inside its own container), and printing shows the whole bracket."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

NAMES = ["Agnes Nitt", "Detritus", "Cheery Littlebottom", "Brick", "Nobby Nobbs",
         "Fred Colon", "Reg Shoe", "Dorfl"]  # fmt: skip


def top8_with_a_playoff():
    t = TournamentFactory(name="Koom Valley Masters", rounds=1, top_cut=8)
    for i, name in enumerate(NAMES, start=1):
        EntryFactory(tournament=t, seed=i, player=PlayerFactory(name=name))
    for draw_at in (None, 2, None):  # Swiss round, quarter-finals (table 2 drawn), playoff
        for m in publish_round(
            pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
        ).matches.all():
            survivors = (8, 2, 8, 2) if m.table == draw_at else (20, 1, 5, 6)
            record_final_result(
                m, survivors=survivors, by=None, source="import", now=timezone.now()
            )
    publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    )  # the semi-finals, awaiting results
    return t


def test_the_bracket_scrolls_inside_its_container_on_a_phone_and_prints_whole(
    browser, live_server, screenshot
):
    t = top8_with_a_playoff()
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{t.slug}/")
    page.locator("#knockout-summary a").click()
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    wrap = page.locator("#bracket")
    assert wrap.evaluate("e => e.scrollWidth > e.clientWidth")  # two columns: wider than 360
    assert page.locator(".tie").count() == 6
    assert page.get_by_text("Playoff in round 3").is_visible()
    screenshot(page, "bracket-phone")

    page.emulate_media(media="print")
    assert page.locator(".tabs").is_hidden()
    assert wrap.evaluate("e => getComputedStyle(e).overflowX") == "visible"
    screenshot(page, "bracket-print")
    context.close()
