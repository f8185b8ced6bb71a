from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import TournamentFactory, tournament_with_players
from tests.tournaments.event import build_event, grow_event
from tournaments.models.results import ResultVersion
from tournaments.models.tournament import Tournament
from tournaments.organising.checkin import set_checked_in as check_in
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db

# The stable keys of the statistics endpoints of Thud (DESIGN.md §8).
THUD_JSON_KEYS = (
    "battles",
    "dwarfs_won",
    "trolls_won",
    "drawn",
    "dwarfs_won_pct",
    "trolls_won_pct",
    "drawn_pct",
)


def test_tournament_list_and_detail(client):
    t = TournamentFactory(name="Lancre Open", slug="lancre")
    publish_round(
        pair_next_round(tournament_with_players(2, slug="other"), by=None, now=timezone.now()),
        now=timezone.now(),
    )
    data = client.get("/api/tournaments/").json()
    assert {d["slug"] for d in data} == {"lancre", "other"}
    detail = client.get(f"/api/tournaments/{t.slug}/").json()
    assert detail["name"] == "Lancre Open" and detail["published_rounds"] == []
    assert client.get("/api/tournaments/other/").json()["published_rounds"] == [1]


def test_pairings_of_a_published_round_with_a_bye(client):
    t = tournament_with_players(3)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    data = client.get(f"/api/tournaments/{t.slug}/rounds/1/pairings").json()
    assert [d["table"] for d in data] == [1, 2]
    bye = r.matches.get(player_b__isnull=True)
    assert data[1] == {
        "table": 2,
        "player_a": bye.player_a.player.name,
        "player_b": None,
        "result_status": "awaiting",
        "battles": None,
        "score": None,
    }


def test_draft_round_unknown_round_and_unknown_slug_are_json_404(client):
    t = tournament_with_players(2)
    pair_next_round(t, by=None, now=timezone.now())
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
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    m = r.matches.get()
    record_final_result(
        m, survivors=(10, 1, 5, 2), by=None, source=ResultVersion.Source.IMPORT, now=timezone.now()
    )
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
        r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
        for m in r.matches.filter(player_b__isnull=False):
            record_final_result(
                m, survivors=(9, 1, 3, 2), by=None, source="import", now=timezone.now()
            )
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/api/tournaments/{t.slug}/standings").status_code == 200
    return len(ctx.captured_queries)


def test_standings_query_count_does_not_grow_with_players(client):
    assert standings_queries(client, 4) == standings_queries(client, 40)


def test_api_is_read_only(client):
    t = tournament_with_players(2)
    assert client.post(f"/api/tournaments/{t.slug}/standings").status_code == 405


def test_pairings_carry_battles_and_score_once_confirmed(client):
    build_event()
    rounds = [client.get(f"/api/tournaments/stats-cup/rounds/{n}/pairings").json() for n in (1, 4)]
    confirmed, pending = rounds[0][0], rounds[1][0]
    assert confirmed["result_status"] == "confirmed"
    assert confirmed["battles"] == [
        {
            "battle": 1,
            "dwarfs": "Ann",
            "trolls": "Bo",
            "dwarfs_surviving": 20,
            "trolls_surviving": 3,
            "dwarf_points": 20,
            "troll_points": 12,
        },
        {
            "battle": 2,
            "dwarfs": "Bo",
            "trolls": "Ann",
            "dwarfs_surviving": 10,
            "trolls_surviving": 4,
            "dwarf_points": 10,
            "troll_points": 16,
        },
    ]
    assert confirmed["score"] == {
        "a_points": 36,
        "b_points": 22,
        "differential": 14,
        "outcome": "a",
        "a_match_points": 2,
        "b_match_points": 0,
    }
    # Entered but not confirmed: no scores yet; a bye has none either.
    assert pending["result_status"] == "entered"
    assert (pending["battles"], pending["score"]) == (None, None)
    assert rounds[0][1]["player_b"] is None and rounds[0][1]["score"] is None


def test_pairing_match_points_follow_the_outcome(client):
    build_event()
    drawn = client.get("/api/tournaments/stats-cup/rounds/2/pairings").json()[0]["score"]
    assert drawn["outcome"] == "draw" and drawn["differential"] == 0
    assert drawn["a_match_points"] == drawn["b_match_points"] == 1
    # Round 3: Cy (A) 5 + 4 = 9 against Ann (B) 24 + 30 = 54.
    b_won = client.get("/api/tournaments/stats-cup/rounds/3/pairings").json()[0]["score"]
    assert (b_won["outcome"], b_won["differential"]) == ("b", -45)
    assert (b_won["a_match_points"], b_won["b_match_points"]) == (0, 2)


def test_stats_endpoints_keys_and_hand_computed_values(client):
    event = build_event()
    site = client.get("/api/stats").json()
    tournament = client.get("/api/tournaments/stats-cup/stats").json()
    ann = client.get(f"/api/players/{event.ann.player_id}/stats").json()
    for data in (site, tournament, ann):
        assert set(THUD_JSON_KEYS) <= set(data)
    assert {k: site[k] for k in THUD_JSON_KEYS} == {
        "battles": 8,
        "dwarfs_won": 3,
        "trolls_won": 3,
        "drawn": 2,
        "dwarfs_won_pct": 37.5,
        "trolls_won_pct": 37.5,
        "drawn_pct": 25.0,
    }
    assert {k: tournament[k] for k in THUD_JSON_KEYS} == {
        "battles": 6,
        "dwarfs_won": 2,
        "trolls_won": 2,
        "drawn": 2,
        "dwarfs_won_pct": 33.33,
        "trolls_won_pct": 33.33,
        "drawn_pct": 33.33,
    }
    assert tournament["tournament"] == "stats-cup"
    assert tournament["avg_dwarf_points"] == 14.17
    assert (ann["battles"], ann["dwarfs_won"], ann["trolls_won"], ann["lost"]) == (6, 3, 3, 0)
    assert ann["name"] == "Ann" and ann["avg_dwarf_points"] == 27.33


def test_stats_of_unknown_tournament_or_player_are_json_404(client):
    for url in ("/api/tournaments/nope/stats", "/api/players/999999/stats"):
        response = client.get(url)
        assert response.status_code == 404 and "error" in response.json()


def api_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_stats_and_pairings_query_counts_do_not_grow(client):
    small, large = grow_event(4), grow_event(16)
    for template in ("/api/tournaments/{}/stats", "/api/tournaments/{}/rounds/1/pairings"):
        assert api_queries(client, template.format(small.slug)) == api_queries(
            client, template.format(large.slug)
        ), template
    players = [t.entries.first().player_id for t in (small, large)]
    assert len({api_queries(client, f"/api/players/{p}/stats") for p in players}) == 1
    before = api_queries(client, "/api/stats")
    grow_event(8)
    assert api_queries(client, "/api/stats") == before


def test_cavalli_tournament_stats_name_the_sides_white_and_black(client):
    """A Cavalli tournament's results are counted under its own side names."""
    t = tournament_with_players(4, rounds=3, game="cavalli", slug="palio-api")
    for m in publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.all():
        record_final_result(
            m, survivors=(3000, 1200, 1000, 2600), by=None, source="import", now=timezone.now()
        )
    data = client.get("/api/tournaments/palio-api/stats").json()
    assert not [key for key in data if "dwarf" in key or "troll" in key]
    # Game 1: white 3000 > black 1200; game 2: black 2600 > white 1000 (points as they are).
    assert (data["battles"], data["white_won"], data["black_won"]) == (4, 2, 2)
    assert (data["white_won_pct"], data["black_won_pct"]) == (50.0, 50.0)
    assert (data["avg_white_points"], data["avg_black_points"]) == (2000.0, 1900.0)


def test_cavalli_pairings_name_the_battles_sides_white_and_black(client):
    t = tournament_with_players(2, rounds=3, game="cavalli", slug="palio-pairings")
    (m,) = publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.all()
    record_final_result(
        m, survivors=(3000, 1200, 1000, 2600), by=None, source="import", now=timezone.now()
    )
    (pairing,) = client.get("/api/tournaments/palio-pairings/rounds/1/pairings").json()
    a, b = m.player_a.player.name, m.player_b.player.name
    assert pairing["battles"] == [
        {
            "battle": 1,
            "white": a,
            "black": b,
            "white_scored": 3000,
            "black_scored": 1200,
            "white_points": 3000,
            "black_points": 1200,
        },
        {
            "battle": 2,
            "white": b,
            "black": a,
            "white_scored": 1000,
            "black_scored": 2600,
            "white_points": 1000,
            "black_points": 2600,
        },
    ]


def test_detail_lists_entries_with_check_in_and_pairings_leave_absent_players_out(client):
    t = tournament_with_players(5, check_in_required=True)
    entries = list(t.entries.select_related("player").order_by("seed"))
    absent = entries[-1]
    for e in entries[:-1]:
        check_in(e, present=True, now=timezone.now())
    detail = client.get(f"/api/tournaments/{t.slug}/").json()
    assert detail["check_in_required"] is True
    assert [(e["name"], e["checked_in"]) for e in detail["entries"]] == [
        (e.player.name, e is not absent) for e in entries
    ]
    publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    pairings = client.get(f"/api/tournaments/{t.slug}/rounds/1/pairings").json()
    listed = {p["player_a"] for p in pairings} | {p["player_b"] for p in pairings}
    assert absent.player.name not in listed and len(pairings) == 2


def test_a_changed_points_scheme_shows_alike_in_pairings_and_standings(client):
    """The pairings' match points and the standings' are one reading of the scheme
    (``standings.table.match_points_of``): with unusual points for each outcome, a
    player's points over the pairings (a bye is a win) are their standings' points."""
    event = build_event()
    Tournament.objects.filter(pk=event.t.pk).update(points_win=5, points_draw=3, points_loss=1)
    earned: dict[str, int] = dict.fromkeys(("Ann", "Bo", "Cy"), 0)
    for number in range(1, 5):
        for pairing in client.get(f"/api/tournaments/stats-cup/rounds/{number}/pairings").json():
            if pairing["player_b"] is None:
                earned[pairing["player_a"]] += 5
            elif pairing["score"] is not None:
                earned[pairing["player_a"]] += pairing["score"]["a_match_points"]
                earned[pairing["player_b"]] += pairing["score"]["b_match_points"]
    standings = client.get("/api/tournaments/stats-cup/standings").json()
    assert {row["name"]: row["match_points"] for row in standings} == earned
    assert sorted(earned.values()) != [0, 0, 0] and len(set(earned.values())) > 1
