"""A tournament match played online through API v1 (play/views_api_v1_matches.py): the
match page's *Play online* by program, through the same gate and workflow; a repeat
creates and joins once; refusals are problems that change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.factories import UserFactory, make_match
from tests.play.test_views_api_v1 import bearer, token_for
from tournaments.models.rounds import Round

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


def play(client, match, token):
    return client.post(f"/api/v1/matches/{match.pk}/play", headers=bearer(token))


def read(client, match, token):
    return client.get(f"/api/v1/matches/{match.pk}", headers=bearer(token))


@pytest.fixture
def match():
    return make_match(variant="timed24")[0]


def users(match):
    return match.player_a.player.user, match.player_b.player.user


def test_each_player_plays_the_match_online_and_battle_1_starts_once_both_joined(client, match):
    a, b = users(match)
    first = play(client, match, token_for(a))
    assert first.status_code == 200, first.content
    body = first.json()
    assert (body["id"], body["round"], body["table"]) == (match.pk, 1, 1)
    sides = [side.key for side in Battle.objects.get(match=match, number=1).rules.sides]
    # Player A has the first side in battle 1 and the second in battle 2.
    assert [(x["number"], x["status"], x["you"]) for x in body["battles"]] == [
        (1, "pending", sides[0]),
        (2, "pending", sides[1]),
    ]
    assert body["battles"][0]["awaits_players"] is True
    battle_1 = Battle.objects.get(match=match, number=1)
    assert battle_1.status == Battle.Status.PENDING
    # The same request again joins nothing twice and creates nothing more.
    version = battle_1.clock_version
    assert play(client, match, token_for(a)).status_code == 200
    assert Battle.objects.filter(match=match).count() == 2
    assert Battle.objects.get(pk=battle_1.pk).clock_version == version
    # The other player's program joins: the clock starts.
    second = play(client, match, token_for(b)).json()
    assert second["battles"][0]["status"] == "running"
    assert second["battles"][0]["you"] == sides[1]
    assert Battle.objects.get(pk=battle_1.pk).status == Battle.Status.RUNNING
    # What the match page shows them is the same battles.
    read_back = read(client, match, token_for(b, scopes=("read",))).json()
    assert read_back["battles"] == second["battles"]


def test_the_page_and_the_program_start_the_same_battles(client, match):
    a, b = users(match)
    client.force_login(a)
    page = client.post(reverse("games:start_online", args=[match.pk]))
    battle_1 = Battle.objects.get(match=match, number=1)
    assert page.status_code == 302 and page.url == reverse("games:battle", args=[battle_1.pk])
    client.logout()
    body = play(client, match, token_for(b)).json()
    assert body["battles"][0]["id"] == battle_1.pk
    assert Battle.objects.get(pk=battle_1.pk).status == Battle.Status.RUNNING


def test_refusals_change_nothing(client, match):
    a, _b = users(match)
    stranger = UserFactory(username="not-in-this-match")
    refused = play(client, match, token_for(stranger))
    assert refused.status_code == 403 and refused["Content-Type"] == PROBLEM
    reader = play(client, match, token_for(a, scopes=("read",)))
    assert reader.status_code == 403 and "scope" in reader.json()["detail"]
    assert play(client, match, "thud_not-a-token").status_code == 401
    missing = client.post("/api/v1/matches/999999/play", headers=bearer(token_for(a)))
    assert missing.status_code == 404 and missing["Content-Type"] == PROBLEM
    assert not Battle.objects.filter(match=match).exists()
    # A stranger may read a published round's match: no battles yet.
    assert read(client, match, token_for(stranger, scopes=("read",))).json()["battles"] == []


def test_a_draft_round_is_not_played(client, match):
    a, _b = users(match)
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.DRAFT)
    refused = play(client, match, token_for(a))
    assert refused.status_code in (404, 409), refused.content
    assert refused["Content-Type"] == PROBLEM
    assert not Battle.objects.filter(match=match).exists()


def test_a_match_played_over_the_board_is_refused_as_its_page_refuses_it(client, match):
    a, _b = users(match)
    create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    refused = play(client, match, token_for(a))
    assert refused.status_code == 409
    assert refused.json()["detail"] == "This match is played over the board."
    assert set(Battle.objects.filter(match=match).values_list("mode", flat=True)) == {"otb"}
    assert Battle.objects.get(match=match, number=1).status == Battle.Status.PENDING
