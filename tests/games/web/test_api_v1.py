"""API v1's battles (games/web/api_v1.py): the old data with the sides listed, the moves,
no draft round, refusals as problems, constant queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models.battle import Battle
from tests.games.records_helpers import greedy_game
from tests.games.test_api_battles import tournament_with
from thud_site.problems import CONTENT_TYPE
from tournaments.models.rounds import Round

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def test_battles_are_the_old_list_with_the_sides_listed(client):
    t = tournament_with(client, 2, 4)
    old = client.get(reverse("api_battles", args=[t.slug])).json()["battles"]
    page = client.get(f"{V1}/tournaments/{t.slug}/battles").json()
    assert page["count"] == len(old) == 4
    for new, was in zip(page["items"], old, strict=True):
        assert {k: new[k] for k in ("id", "round", "table", "number", "mode", "status")} == {
            k: was[k] for k in ("id", "round", "table", "number", "mode", "status")
        }
        assert [s["side"] for s in new["sides"]] == ["dwarfs", "trolls"]
        assert [s["player"] for s in new["sides"]] == [was["dwarfs"], was["trolls"]]
        assert (new["winner"], new["termination"]) == (was["winner"], was["termination"])
        assert new["record_url"] == was["record_url"]
        assert new["url"].endswith(f"{V1}/battles/{new['id']}")
    later = client.get(f"{V1}/tournaments/{t.slug}/battles", {"page_size": 3, "page": 2})
    assert later.json()["items"] == page["items"][3:]


def test_a_battle_lists_its_moves(client):
    t = tournament_with(client, 1, 8)
    b = Battle.objects.get(match__round__tournament=t, number=1)
    data = client.get(f"{V1}/battles/{b.pk}").json()
    moves, _ = greedy_game(8)
    assert data["moves"] == moves and data["tournament"] == t.slug and data["id"] == b.pk
    assert [s["result"] for s in data["sides"]] == [None, None]


def test_a_draft_rounds_battles_never_appear_even_to_referees(client):
    t = tournament_with(client, 1, 2)
    Round.objects.filter(tournament=t).update(status=Round.Status.DRAFT)
    b = Battle.objects.get(match__round__tournament=t, number=1)
    client.force_login(t.referees.get())
    assert client.get(f"{V1}/tournaments/{t.slug}/battles").json() == {"items": [], "count": 0}
    response = client.get(f"{V1}/battles/{b.pk}")
    assert response.status_code == 404 and response["Content-Type"] == CONTENT_TYPE
    old = client.get(reverse("api_battle", args=[b.pk])).json()
    assert response.json()["detail"] == old["error"]


def test_unknown_ids_and_slugs_are_404_problems(client):
    for url in (f"{V1}/battles/999999", f"{V1}/battles/x", f"{V1}/tournaments/nope/battles"):
        response = client.get(url)
        assert response.status_code == 404 and response["Content-Type"] == CONTENT_TYPE, url


def test_query_counts_do_not_grow_with_battles_or_moves(client):
    small, large = tournament_with(client, 1, 2), tournament_with(client, 3, 16)

    def count(url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    url = f"{V1}/tournaments/{{}}/battles"
    assert count(url.format(small.slug)) == count(url.format(large.slug))
    short = Battle.objects.get(match__round__tournament=small, number=1)
    long = Battle.objects.filter(match__round__tournament=large, number=1).first()
    assert count(f"{V1}/battles/{short.pk}") == count(f"{V1}/battles/{long.pk}")
