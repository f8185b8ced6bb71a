"""The old JSON addresses under ``/api/`` (deprecated, README "API") answer as before
now that v1 sits beside them: one test per address, its status, media type and keys."""

from __future__ import annotations

import pytest

from games.models.battle import Battle
from tests.factories import tournament_with_players
from tests.games.test_api_battles import tournament_with
from tests.tournaments.event import build_event
from tests.tournaments.rating.helpers import LATER, play_round
from tournaments.rounds.play import close_tournament

pytestmark = pytest.mark.django_db


def old(client, url: str, **query) -> object:
    response = client.get(url, query)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "application/json"
    assert "ETag" not in response  # v1's conditional answers are v1's alone
    # Each answer says the address is deprecated since v1 came, and where v1 is described.
    assert response["Deprecation"] == "@1796342400"
    assert response["Link"] == '</api/v1/docs>; rel="deprecation"; type="text/html"'
    return response.json()


@pytest.fixture
def event():
    return build_event()


def test_tournament_list(client, event):
    data = old(client, "/api/tournaments/")
    assert {"slug", "name", "format", "status", "check_in_required"} <= set(data[0])
    assert "game" not in data[0]


def test_tournament_detail(client, event):
    data = old(client, "/api/tournaments/stats-cup/")
    assert data["published_rounds"] == [1, 2, 3, 4] and len(data["entries"]) == 3


def test_round_pairings(client, event):
    data = old(client, "/api/tournaments/stats-cup/rounds/1/pairings")
    assert data[0]["battles"][0]["dwarfs_surviving"] == 20


def test_standings(client, event):
    assert [r["name"] for r in old(client, "/api/tournaments/stats-cup/standings")][0] == "Ann"


def test_tournament_stats(client, event):
    assert old(client, "/api/tournaments/stats-cup/stats")["dwarfs_won"] == 2


def test_site_stats(client, event):
    assert old(client, "/api/stats")["battles"] == 8


def test_player_stats(client, event):
    assert old(client, f"/api/players/{event.ann.player_id}/stats")["dwarf_battles"] == 3


def test_ratings_and_a_players_ratings(client):
    t = play_round_and_close()
    data = old(client, "/api/ratings", game="thud")
    assert isinstance(data, list) and len(data) == 4
    player = t.entries.first().player_id
    assert old(client, f"/api/players/{player}/ratings", game="thud")["game"] == "thud"
    missing = client.get("/api/ratings")
    assert missing.status_code == 400 and "error" in missing.json()


def play_round_and_close():
    t = tournament_with_players(4)
    play_round(t, 1)
    close_tournament(t, now=LATER)
    return t


def test_battles_and_a_battle(client):
    t = tournament_with(client, 1, 2)
    data = old(client, f"/api/tournaments/{t.slug}/battles")
    assert data["tournament"] == t.slug and "dwarfs" in data["battles"][0]
    b = Battle.objects.get(match__round__tournament=t, number=1)
    assert old(client, f"/api/battles/{b.pk}")["moves"]


def test_refusals_keep_their_old_shape(client):
    for url in ("/api/tournaments/nope/", "/api/tournaments/nope/battles", "/api/battles/999999"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json" and "error" in response.json()
