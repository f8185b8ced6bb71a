"""Statistics, crosstable and final report pages: content, links, 404s and query counts."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext

from tests.factories import EntryFactory, tournament_with_players
from tournaments.reports import loaders
from tournaments.results.workflow import record_final_result
from tournaments.rounds.adapter import pair_next_round, publish_round

from .event import build_event, grow_event

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_tournament_stats_page_shows_counts_percentages_and_a_chart(client):
    event = build_event()
    page = text(client.get("/t/stats-cup/stats/"))
    assert '33.33 % <span class="muted">(2)</span>' in page
    assert "14.17" in page and "12.67" in page
    assert "<svg" in page and 'width="66.7"' in page  # 33.33 % of the 200-wide bar
    assert event.t.name in page


def test_site_stats_page_is_linked_from_the_navigation(client):
    build_event()
    page = text(client.get("/stats/"))
    assert "37.50 %" in page and "25.00 %" in page
    assert 'href="/stats/"' in text(client.get("/"))


def test_player_stats_page_spans_tournaments_and_is_linked_from_the_player_page(client):
    event = build_event()
    url = f"/players/{event.ann.player_id}/stats/"
    assert url in text(client.get(f"/t/stats-cup/players/{event.ann.pk}/"))
    page = text(client.get(url))
    assert "Won as dwarfs" in page and "Lost" in page
    assert "27.33" in page and "24.00" in page
    assert "Stats Cup" in page and "Other Cup" in page


def test_percentages_follow_the_language(client):
    build_event()
    page = text(client.get("/t/stats-cup/stats/", HTTP_ACCEPT_LANGUAGE="it"))
    assert "33,33 %" in page
    assert "33,33 % (2)</text>" in page  # the chart's labels too


def test_crosstable_page_cells_and_links(client):
    build_event()
    tournament_page = text(client.get("/t/stats-cup/"))
    for url in ("/t/stats-cup/crosstable/", "/t/stats-cup/stats/", "/t/stats-cup/report/"):
        assert f'href="{url}"' in tournament_page
    page = text(client.get("/t/stats-cup/crosstable/"))
    # Ann: R1 vs rank 2 with dwarfs, won +14; R2 bye; R3 vs rank 3 with trolls, won +45.
    assert "2d W +14" in page and "3t W +45" in page and "bye" in page
    assert "1t L -14" in page  # Bo in round 1
    assert "2d …" in page  # round 4 awaits confirmation
    assert 'class="table-wrap crosstable-wrap"' in page


def test_report_page_has_podium_standings_crosstable_stats_and_rank_chart(client):
    build_event()
    page = text(client.get("/t/stats-cup/report/"))
    podium = re.search(r'<ol class="podium">(.*?)</ol>', page).group(1)
    assert podium.index("Ann") < podium.index("Bo") < podium.index("Cy")
    assert "2d W +14" in page
    assert "33.33 %" in page
    assert page.count("<polyline") == 3


def test_report_body_renders_standalone():
    event = build_event()
    html = render_to_string("tournaments/report_body.html", loaders.report_context(event.t))
    assert "<html" not in html
    assert "Ann" in html and "<polyline" in html


@pytest.mark.parametrize(
    "url", ["/t/nope/stats/", "/t/nope/crosstable/", "/t/nope/report/", "/players/999999/stats/"]
)
def test_unknown_tournament_or_player_is_404(client, url):
    assert client.get(url).status_code == 404


def test_pages_refuse_post(client):
    build_event()
    assert client.post("/t/stats-cup/report/").status_code == 405


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_the_field(client):
    small, large = grow_event(4), grow_event(14)
    small_player = small.entries.first().player_id
    large_player = large.entries.first().player_id
    for template in ("/t/{}/stats/", "/t/{}/crosstable/", "/t/{}/report/"):
        assert queries(client, template.format(small.slug)) == queries(
            client, template.format(large.slug)
        ), template
    one_tournament = queries(client, f"/players/{small_player}/stats/")
    assert one_tournament == queries(client, f"/players/{large_player}/stats/")
    # The same player in a second tournament: still the same queries.
    EntryFactory(tournament=large, player_id=small_player, seed=99)
    assert queries(client, f"/players/{small_player}/stats/") == one_tournament
    before = queries(client, "/stats/")
    grow_event(10)
    assert queries(client, "/stats/") == before


def cavalli_cup():
    """A Cavalli tournament, round 1 confirmed: white wins game 1, black game 2, twice."""
    t = tournament_with_players(4, rounds=3, game="cavalli", slug="cavalli-cup")
    for m in publish_round(pair_next_round(t, by=None)).matches.all():
        record_final_result(m, survivors=(3000, 1200, 2500, 2600), by=None, source="import")
    return t


def test_cavalli_tournament_stats_count_its_results_in_white_and_black(client):
    cavalli_cup()
    build_event()  # Thud results elsewhere must not count here
    page = text(client.get("/t/cavalli-cup/stats/"))
    assert "<dt>Battles</dt><dd>4</dd>" in page
    assert '<dt>White won</dt><dd>50.00 % <span class="muted">(2)</span>' in page
    assert '<dt>Black won</dt><dd>50.00 % <span class="muted">(2)</span>' in page
    assert "<dt>Average points as white</dt><dd>2750.00</dd>" in page
    assert "<dt>Average points as black</dt><dd>1900.00</dd>" in page
    assert "A game is won by the side that scores more points" in page
    assert "White won" in page.split("<svg")[1]  # the chart's bars
    assert not re.search(r"dwarf|troll|surviv", page, re.IGNORECASE)


def test_cavalli_report_page_names_white_and_black(client):
    cavalli_cup()
    page = text(client.get("/t/cavalli-cup/report/"))
    assert "<dt>White won</dt>" in page and "Average points as black" in page
    assert "Dwarfs won" not in page and "four per surviving troll" not in page


def test_site_and_player_statistics_stay_thuds(client):
    def figures(url: str) -> str:
        return re.search(r'<dl class="stats">.*?</dl>', text(client.get(url))).group(0)

    event = build_event()
    before = figures("/stats/")
    t = cavalli_cup()
    assert figures("/stats/") == before
    assert "Dwarfs won" in before
    player = t.entries.first().player
    assert "<dt>Battles</dt><dd>0</dd>" in text(client.get(f"/players/{player.pk}/stats/"))
    assert event.t.name in text(client.get(f"/t/{event.t.slug}/stats/"))
