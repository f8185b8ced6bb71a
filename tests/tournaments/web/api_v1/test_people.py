"""API v1's site and player statistics and the ratings: the old figures, a game chosen by
``game`` (the default game if left out), refusals as problems."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import tournament_with_players
from tests.tournaments.event import build_event, grow_event
from tests.tournaments.rating.helpers import LATER, play_round
from thud_site.problems import CONTENT_TYPE
from tournaments.models.ratings import SiteRating
from tournaments.rounds.play import close_tournament

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def problem(response, status: int) -> dict:
    assert response.status_code == status and response["Content-Type"] == CONTENT_TYPE
    return response.json()


def sides(data: dict) -> dict[str, tuple]:
    return {
        s["side"]: (s["won"], s["won_pct"], s["avg_points"], s["battles"]) for s in data["sides"]
    }


@pytest.fixture
def rated():
    t = tournament_with_players(4, name="Ankh-Morpork Open")
    play_round(t, 1)
    play_round(t, 2)
    close_tournament(t, now=LATER)
    return t


def test_site_stats_are_the_old_figures_with_the_sides_listed(client):
    build_event()
    old = client.get("/api/stats").json()
    data = client.get(f"{V1}/stats").json()
    assert (data["game"], data["battles"], data["drawn"], data["lost"]) == ("thud", 8, 2, None)
    assert sides(data) == {
        "dwarfs": (old["dwarfs_won"], old["dwarfs_won_pct"], old["avg_dwarf_points"], None),
        "trolls": (old["trolls_won"], old["trolls_won_pct"], old["avg_troll_points"], None),
    }
    assert client.get(f"{V1}/stats", {"game": "cavalli"}).json()["battles"] == 0


def test_player_stats_count_lost_battles_and_each_sides_battles(client):
    event = build_event()
    old = client.get(f"/api/players/{event.ann.player_id}/stats").json()
    data = client.get(f"{V1}/players/{event.ann.player_id}/stats").json()
    assert (data["player"], data["name"], data["lost"]) == (event.ann.player_id, "Ann", 0)
    assert sides(data)["dwarfs"] == (3, old["dwarfs_won_pct"], 27.33, old["dwarf_battles"])


def test_unknown_player_is_a_404_and_unknown_game_a_422_problem(client):
    for url in (f"{V1}/players/999999/stats", f"{V1}/players/999999/ratings"):
        assert problem(client.get(url), 404)["detail"] == "No such player"
    for url in (f"{V1}/stats", f"{V1}/ratings"):
        body = problem(client.get(url, {"game": "chess"}), 422)
        assert body["errors"][0]["loc"] == ["query", "game"]
        assert "Unknown game" in body["errors"][0]["msg"]


def test_ratings_are_the_old_list_paginated(client, rated):
    old = client.get("/api/ratings", {"game": "thud"}).json()
    assert client.get(f"{V1}/ratings").json() == {"items": old, "count": 4}
    page = client.get(f"{V1}/ratings", {"page": 2, "page_size": 3}).json()
    assert page["items"] == old[3:]
    assert client.get(f"{V1}/ratings", {"game": "cavalli"}).json() == {"items": [], "count": 0}


def test_a_players_ratings_are_the_old_history(client, rated):
    top = SiteRating.objects.order_by("-rating").first().player
    old = client.get(f"/api/players/{top.pk}/ratings", {"game": "thud"}).json()
    assert client.get(f"{V1}/players/{top.pk}/ratings").json() == old


def test_ratings_and_stats_cost_the_same_queries_however_many(client, rated):
    def count(url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    before = [count(f"{V1}/ratings"), count(f"{V1}/stats")]
    grow_event(12)
    more = tournament_with_players(6, name="Second Open")
    play_round(more, 1)
    close_tournament(more, now=LATER)
    assert SiteRating.objects.count() > 4
    assert [count(f"{V1}/ratings"), count(f"{V1}/stats")] == before
