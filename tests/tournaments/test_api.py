from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import TournamentFactory, tournament_with_players
from tournaments.models import ResultVersion
from tournaments.results import record_final_result
from tournaments.rounds import pair_next_round, publish_round

pytestmark = pytest.mark.django_db


def test_tournament_list_and_detail(client):
    t = TournamentFactory(name="Lancre Open", slug="lancre")
    publish_round(pair_next_round(tournament_with_players(2, slug="other"), by=None))
    data = client.get("/api/tournaments/").json()
    assert {d["slug"] for d in data} == {"lancre", "other"}
    detail = client.get(f"/api/tournaments/{t.slug}/").json()
    assert detail["name"] == "Lancre Open" and detail["published_rounds"] == []
    assert client.get("/api/tournaments/other/").json()["published_rounds"] == [1]


def test_pairings_of_a_published_round_with_a_bye(client):
    t = tournament_with_players(3)
    r = publish_round(pair_next_round(t, by=None))
    data = client.get(f"/api/tournaments/{t.slug}/rounds/1/pairings").json()
    assert [d["table"] for d in data] == [1, 2]
    bye = r.matches.get(player_b__isnull=True)
    assert data[1] == {
        "table": 2,
        "player_a": bye.player_a.player.name,
        "player_b": None,
        "result_status": "awaiting",
    }


def test_draft_round_unknown_round_and_unknown_slug_are_json_404(client):
    t = tournament_with_players(2)
    pair_next_round(t, by=None)
    for url in (
        f"/api/tournaments/{t.slug}/rounds/1/pairings",
        f"/api/tournaments/{t.slug}/rounds/7/pairings",
        "/api/tournaments/nope/",
        "/api/tournaments/nope/standings",
    ):
        response = client.get(url)
        assert response.status_code == 404
        assert "error" in response.json()


def test_standings_fields(client):
    t = tournament_with_players(2)
    r = publish_round(pair_next_round(t, by=None))
    m = r.matches.get()
    record_final_result(m, survivors=(10, 1, 5, 2), by=None, source=ResultVersion.Source.IMPORT)
    data = client.get(f"/api/tournaments/{t.slug}/standings").json()
    assert data[0] == {
        "rank": 1,
        "name": m.player_a.player.name,
        "played": 1,
        "match_points": 2,
        "differential": 9,
        "buchholz": 0,
        "sonneborn_berger": 0.0,
        "battles_won": 2,
    }


def standings_queries(client, n: int) -> int:
    t = tournament_with_players(n, rounds=3)
    for _ in range(2):
        r = publish_round(pair_next_round(t, by=None))
        for m in r.matches.filter(player_b__isnull=False):
            record_final_result(m, survivors=(9, 1, 3, 2), by=None, source="import")
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/api/tournaments/{t.slug}/standings").status_code == 200
    return len(ctx.captured_queries)


def test_standings_query_count_does_not_grow_with_players(client):
    assert standings_queries(client, 4) == standings_queries(client, 40)


def test_api_is_read_only(client):
    t = tournament_with_players(2)
    assert client.post(f"/api/tournaments/{t.slug}/standings").status_code == 405
