"""Statistics, crosstable and final report pages: content, links, 404s and query counts."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, tournament_with_players
from tests.tournaments.event import build_event, grow_event
from tournaments.models.tournament import Tournament
from tournaments.reports import loaders
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

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


def test_report_page_has_leaders_standings_crosstable_stats_and_rank_chart(client):
    build_event()  # 4 of 5 rounds public, the 4th awaiting a confirmation
    page = text(client.get("/t/stats-cup/report/"))
    leaders = re.search(r'<ol class="leaders">(.*?)</ol>', page).group(1)
    assert leaders.index("Ann") < leaders.index("Bo") < leaders.index("Cy")
    assert "Leaders in round 4 of 5" in page and "Podium" not in page
    assert "2d W +14" in page
    assert "33.33 %" in page
    assert page.count('<polyline class="chart-line') == 3


def test_report_of_a_closed_tournament_has_the_podium(client):
    event = build_event()
    Tournament.objects.filter(pk=event.t.pk).update(status=Tournament.Status.FINISHED)
    page = text(client.get("/t/stats-cup/report/"))
    podium = re.search(r'<ol class="podium">(.*?)</ol>', page).group(1)
    assert podium.index("Ann") < podium.index("Bo") < podium.index("Cy")
    assert "<h2>Podium</h2>" in page and "Leaders" not in page
    assert "Interim report" not in page


NAMES = ["Agnes Nitt", "Detritus", "Carrot Ironfoundersson", "Angua von Überwald"]


def swiss(played: int, *, planned: int = 4, names=NAMES):
    """A Swiss tournament of ``planned`` rounds, ``played`` of them paired and confirmed."""
    t = TournamentFactory(rounds=planned, slug="swiss")
    for seed, name in enumerate(names, start=1):
        EntryFactory(tournament=t, seed=seed, player=PlayerFactory(name=name))
    for _ in range(played):
        r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
        for m in r.matches.filter(player_b__isnull=False):
            record_final_result(
                m, survivors=(20, 3, 10, 4), by=None, source="import", now=timezone.now()
            )
    return t


def test_no_podium_after_round_1_of_4(client):
    swiss(1)
    page = text(client.get("/t/swiss/report/"))
    assert "Leaders after round 1 of 4" in page
    assert "Podium" not in page and 'class="podium"' not in page
    assert re.search(r"<h1>[^<]*<span[^>]*>Interim report</span></h1>", page)
    assert re.search(r'<ol class="leaders">(.*?<li>){3}', page)


def test_a_podium_after_the_final_round(client):
    swiss(4)
    page = text(client.get("/t/swiss/report/"))
    assert "<h2>Podium</h2>" in page and 'class="podium"' in page
    assert "Leaders" not in page
    assert re.search(r"<h1>[^<]*<span[^>]*>Final report</span></h1>", page)


def test_report_in_italian_and_norwegian_says_leaders_after_round(client):
    swiss(1)
    it = text(client.get("/t/swiss/report/", HTTP_ACCEPT_LANGUAGE="it"))
    nb = text(client.get("/t/swiss/report/", HTTP_ACCEPT_LANGUAGE="nb"))
    assert "Leaders after round" not in it + nb
    assert "1" in re.search(r"<h2>([^<]*4)</h2>", it).group(1)
    assert re.search(r"<h2>([^<]*4)</h2>", nb)


def figure(page: str, figure_id: str) -> str:
    return re.search(
        rf'<figure class="chart-box [^"]*" id="{figure_id}">(.*?)</figure>', page
    ).group(1)


def test_each_chart_is_a_figure_named_by_its_caption_with_its_data_as_a_table(client):
    swiss(2)
    page = text(client.get("/t/swiss/report/"))
    for figure_id in ("side-chart", "rank-chart"):
        body = figure(page, figure_id)
        caption = re.search(rf'<figcaption id="{figure_id}-caption">([^<]+)</figcaption>', body)
        assert caption, figure_id
        assert f'role="img" aria-labelledby="{figure_id}-caption"' in body
        assert "<details" in body and "<summary>" in body
        assert body.count('<th scope="col">') >= 3 and '<th scope="row">' in body
    # The rank chart's table: one row per line, each name, its rank after rounds 1 and 2.
    rank = figure(page, "rank-chart")
    lines = len(re.findall(r'<polyline class="chart-line', rank))
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td></tr>', rank)
    assert len(rows) == lines == 4
    assert sorted(name for name, *_ in rows) == sorted(NAMES)
    side = figure(page, "side-chart")
    assert re.search(r'<th scope="row">Dwarfs won</th><td>[\d.]+ %</td><td>\d+</td>', side)


def test_a_long_name_is_shortened_in_the_chart_and_whole_in_the_table(client):
    long_name = "Bartholomew Featherstonehaugh-Worthington the Third"
    swiss(1, names=[*NAMES[:3], long_name])
    rank = figure(text(client.get("/t/swiss/report/")), "rank-chart")
    assert f"<title>{long_name}</title>" in rank
    assert f'<th scope="row">{long_name}</th>' in rank
    assert ">Bartholomew Featherstonehau…</text>" in rank


def test_stats_pages_have_the_chart_figure_and_link_the_chart_styles(client):
    event = build_event()
    for url in ("/stats/", "/t/stats-cup/stats/", f"/players/{event.ann.player_id}/stats/"):
        page = text(client.get(url))
        assert 'href="/static/css/charts.css"' in page, url
        assert 'aria-labelledby="side-chart-caption"' in figure(page, "side-chart"), url


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
    for m in publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.all():
        record_final_result(
            m, survivors=(3000, 1200, 2500, 2600), by=None, source="import", now=timezone.now()
        )
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
