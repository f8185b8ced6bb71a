"""Battles in the JSON API: language-neutral keys, no draft rounds, constant queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.battles.play import accept_end, offer_end
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import make_match
from tests.games.records_helpers import greedy_game, play_through_site
from tournaments.models.rounds import Round

pytestmark = pytest.mark.django_db


def tournament_with(client, tables: int, plies: int):
    matches = make_match(variant="quickfire30", tables=tables)
    for m in matches:
        b1, _ = create_battles(m, mode=Battle.Mode.ONLINE, now=timezone.now())
        play_through_site(client, start_battle(b1.pk, now=timezone.now()), plies)
    client.logout()
    return matches[0].round.tournament


def test_battle_list_names_players_sides_status_and_result(client):
    t = tournament_with(client, 2, 4)
    b = Battle.objects.filter(match__round__tournament=t).order_by("match__table", "number")[0]
    offer_end(b.pk, side="dwarf", now=timezone.now())
    accept_end(b.pk, side="troll", now=timezone.now())
    r = client.get(reverse("api_battles", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 200 and r["Content-Type"] == "application/json"
    data = r.json()
    assert data["tournament"] == t.slug and len(data["battles"]) == 4
    first = data["battles"][0]
    b = Battle.objects.get(pk=b.pk)
    assert first | {"url": "", "record_url": ""} == {
        "id": b.pk,
        "round": 1,
        "table": 1,
        "number": 1,
        "mode": "online",
        "dwarfs": {"id": b.first_entry.player_id, "name": b.first_entry.player.name},
        "trolls": {"id": b.second_entry.player_id, "name": b.second_entry.player.name},
        "status": "finished",
        "result": {"dwarfs": b.first_count, "trolls": b.second_count},
        "termination": "agreement",
        "winner": (
            "draw"
            if b.first_count == b.second_count * 4
            else "dwarfs"
            if b.first_count > b.second_count * 4
            else "trolls"
        ),
        "url": "",
        "record_url": "",
    }
    assert first["record_url"].endswith(reverse("games:record", args=[b.pk]))
    second = data["battles"][1]
    assert (second["number"], second["status"], second["result"]) == (2, "running", None)


def test_battle_detail_lists_the_moves_in_canonical_notation(client):
    t = tournament_with(client, 1, 8)
    b = Battle.objects.get(match__round__tournament=t, number=1)
    data = client.get(reverse("api_battle", args=[b.pk])).json()
    moves, _ = greedy_game(8)
    assert data["moves"] == moves and data["tournament"] == t.slug
    assert data["id"] == b.pk and data["termination"] is None


def test_draft_rounds_never_appear_even_to_referees(client):
    t = tournament_with(client, 1, 2)
    Round.objects.filter(tournament=t).update(status=Round.Status.DRAFT)
    b = Battle.objects.get(match__round__tournament=t, number=1)
    client.force_login(t.referees.get())
    assert client.get(reverse("api_battles", args=[t.slug])).json()["battles"] == []
    r = client.get(reverse("api_battle", args=[b.pk]))
    assert r.status_code == 404 and "error" in r.json()


def test_unknown_ids_are_json_404s(client):
    assert client.get(reverse("api_battle", args=[999999])).status_code == 404
    r = client.get(reverse("api_battles", args=["nope"]))
    assert r.status_code == 404 and r.json()["error"]


def test_query_counts_do_not_grow_with_battles_or_moves(client):
    small, large = tournament_with(client, 1, 2), tournament_with(client, 3, 16)
    for view in ("api_battles",):
        with CaptureQueriesContext(connection) as few:
            client.get(reverse(view, args=[small.slug]))
        with CaptureQueriesContext(connection) as many:
            client.get(reverse(view, args=[large.slug]))
        assert len(few) == len(many)
    short = Battle.objects.get(match__round__tournament=small, number=1)
    long = Battle.objects.filter(match__round__tournament=large, number=1).first()
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("api_battle", args=[short.pk]))
    with CaptureQueriesContext(connection) as many:
        assert len(client.get(reverse("api_battle", args=[long.pk])).json()["moves"]) == 16
    assert len(few) == len(many)
