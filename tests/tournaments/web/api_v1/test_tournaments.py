"""API v1's tournaments, entries, pairings, standings and a tournament's statistics: the
old API's figures (each test reads both), paginated, refused as problems."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import tournament_with_players
from tests.tournaments.event import build_event, grow_event
from thud_site.problems import CONTENT_TYPE
from tournaments.organising.checkin import set_checked_in as check_in
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db

V1 = "/api/v1/tournaments"


def problem(response, status: int) -> str:
    assert response.status_code == status and response["Content-Type"] == CONTENT_TYPE
    return response.json()["detail"]


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_list_is_paginated_with_its_count(client):
    for n in range(3):
        tournament_with_players(0, slug=f"t{n}", name=f"Open {n}")
    page = client.get(V1, {"page_size": 2}).json()
    assert page["count"] == 3 and len(page["items"]) == 2
    rest = client.get(V1, {"page_size": 2, "page": 2}).json()["items"]
    old = [t["slug"] for t in client.get("/api/tournaments/").json()]
    assert [t["slug"] for t in page["items"] + rest] == old
    assert set(rest[0]) == {*client.get("/api/tournaments/").json()[0], "game"}


def test_the_list_costs_the_same_queries_however_long(client):
    tournament_with_players(0)
    few = queries(client, V1)
    for _ in range(5):
        tournament_with_players(0)
    assert queries(client, V1) == few


def test_detail_is_the_old_detail_with_its_entries_apart(client):
    t = tournament_with_players(3, check_in_required=True)
    for entry in t.entries.order_by("seed")[:2]:
        check_in(entry, present=True, now=timezone.now())
    publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    old = client.get(f"/api/tournaments/{t.slug}/").json()
    detail = client.get(f"{V1}/{t.slug}").json()
    entries = old.pop("entries")
    assert detail == old | {"game": "thud"} and detail["published_rounds"] == [1]
    listed = client.get(f"{V1}/{t.slug}/entries").json()
    assert listed == {"items": entries, "count": 3}
    assert [e["checked_in"] for e in listed["items"]] == [True, True, False]


def test_an_unknown_slug_is_a_404_problem_everywhere(client):
    for tail in ("", "/entries", "/rounds/1/pairings", "/standings", "/stats"):
        assert problem(client.get(f"{V1}/nope{tail}"), 404) == "No such tournament", tail


def test_a_draft_or_missing_round_is_a_404_problem_as_in_the_old_api(client):
    t = tournament_with_players(2)
    pair_next_round(t, by=None, now=timezone.now())
    for number in (1, 7):
        old = client.get(f"/api/tournaments/{t.slug}/rounds/{number}/pairings")
        detail = problem(client.get(f"{V1}/{t.slug}/rounds/{number}/pairings"), 404)
        assert detail == old.json()["error"]


def test_pairings_carry_the_old_figures_with_the_sides_listed(client):
    build_event()
    old = client.get("/api/tournaments/stats-cup/rounds/1/pairings").json()
    page = client.get(f"{V1}/stats-cup/rounds/1/pairings").json()
    assert page["count"] == 2
    confirmed, bye = page["items"]
    assert confirmed["score"] == old[0]["score"] and bye == old[1]
    assert confirmed["battles"][0] == {
        "battle": 1,
        "sides": [
            {"side": "dwarfs", "player": "Ann", "numbers": 20, "points": 20},
            {"side": "trolls", "player": "Bo", "numbers": 3, "points": 12},
        ],
    }
    second = confirmed["battles"][1]["sides"]
    assert [(s["player"], s["numbers"]) for s in second] == [("Bo", 10), ("Ann", 4)]
    pending = client.get(f"{V1}/stats-cup/rounds/4/pairings").json()["items"][0]
    assert (pending["result_status"], pending["battles"], pending["score"]) == (
        "entered",
        None,
        None,
    )


def test_standings_are_the_old_standings_paginated(client):
    build_event()
    old = client.get("/api/tournaments/stats-cup/standings").json()
    assert client.get(f"{V1}/stats-cup/standings").json() == {"items": old, "count": 3}
    page = client.get(f"{V1}/stats-cup/standings", {"page": 2, "page_size": 2}).json()
    assert page["items"] == old[2:]


def test_tournament_stats_list_the_sides_with_the_old_figures(client):
    build_event()
    old = client.get("/api/tournaments/stats-cup/stats").json()
    data = client.get(f"{V1}/stats-cup/stats").json()
    assert (data["tournament"], data["game"], data["battles"], data["drawn_pct"]) == (
        "stats-cup",
        "thud",
        6,
        33.33,
    )
    dwarfs, trolls = data["sides"]
    assert dwarfs == {
        "side": "dwarfs",
        "won": old["dwarfs_won"],
        "won_pct": old["dwarfs_won_pct"],
        "avg_points": old["avg_dwarf_points"],
        "battles": None,
    }
    assert (trolls["side"], trolls["won"], trolls["avg_points"]) == ("trolls", 2, 12.67)


def test_cavalli_sides_are_white_and_black_in_one_schema(client):
    t = tournament_with_players(2, rounds=3, game="cavalli", slug="palio-v1")
    (m,) = publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.all()
    record_final_result(
        m, survivors=(3000, 1200, 1000, 2600), by=None, source="import", now=timezone.now()
    )
    pairing = client.get(f"{V1}/palio-v1/rounds/1/pairings").json()["items"][0]
    assert [s["side"] for s in pairing["battles"][0]["sides"]] == ["white", "black"]
    stats = client.get(f"{V1}/palio-v1/stats").json()
    assert [(s["side"], s["won"]) for s in stats["sides"]] == [("white", 1), ("black", 1)]


def test_pairings_standings_and_stats_cost_the_same_queries_however_large(client):
    small, large = grow_event(4), grow_event(16)
    for tail in ("/rounds/1/pairings", "/standings", "/stats", "/entries"):
        assert queries(client, f"{V1}/{small.slug}{tail}") == queries(
            client, f"{V1}/{large.slug}{tail}"
        ), tail


def test_a_304_by_the_state_version_runs_no_loader_and_a_result_changes_it(client):
    t = tournament_with_players(4)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    url = f"{V1}/{t.slug}/standings"
    first = client.get(url)
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as ctx:
        held = client.get(url, headers={"if-none-match": etag})
    assert held.status_code == 304 and held["ETag"] == etag
    # The tournament, read once (the time-zone middleware's read is the gate's), no loader.
    assert len(ctx.captured_queries) == 1
    # Another page of the same list is another answer.
    assert client.get(url, {"page": 2}, headers={"if-none-match": etag}).status_code == 200
    record_final_result(
        r.matches.first(), survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now()
    )
    changed = client.get(url, headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["items"][0]["match_points"] == 2


@pytest.mark.parametrize("tail", ["", "/rounds/1/pairings", "/stats"])
def test_the_detail_pairings_and_stats_are_tagged_by_the_state_version(client, tail):
    t = tournament_with_players(2)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    etag = client.get(f"{V1}/{t.slug}{tail}")["ETag"]
    assert client.get(f"{V1}/{t.slug}{tail}", headers={"if-none-match": etag}).status_code == 304
    record_final_result(
        r.matches.get(), survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now()
    )
    assert client.get(f"{V1}/{t.slug}{tail}", headers={"if-none-match": etag}).status_code == 200
