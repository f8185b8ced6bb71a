"""Challenges through API v1 (play/views_api_v1_challenges.py) as a token's user: the start
page's form and the same domain calls, refusals as problems that change nothing."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from accounts import tokens
from games.models.battle import Battle
from play import challenges
from play.models import CasualMatch, Challenge
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
CHALLENGES = "/api/v1/challenges"


def token_for(user, scopes=("play",)) -> str:
    return tokens.make_token(user, name="engine", scopes=scopes, now=timezone.now()).plain


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def post(client, url, token, body=None):
    return client.post(
        url, data=json.dumps(body or {}), content_type="application/json", headers=bearer(token)
    )


def answer(client, challenge_id, action, token):
    return post(client, f"{CHALLENGES}/{challenge_id}/{action}", token)


def listed(client, token) -> dict:
    r = client.get(CHALLENGES, headers=bearer(token))
    assert r.status_code == 200, r.content
    return r.json()


def body(opponent="bot-b", **kw) -> dict:
    return {"opponent": opponent, "game": "thud", "timing": "quickfire", **kw}


def stored() -> tuple:
    """What a refused request must leave as it was."""
    return (
        list(Challenge.objects.order_by("pk").values_list("pk", "status", "battle")),
        Battle.objects.count(),
    )


@pytest.fixture
def pair():
    a, b = UserFactory(username="bot-a"), UserFactory(username="Bot-B")
    return a, b, token_for(a), token_for(b, scopes=("bot",))


def test_a_challenge_made_by_token_is_listed_for_both_users(client, pair):
    a, b, token_a, token_b = pair
    made = post(client, CHALLENGES, token_a, body(days=4, move_limit=30, first="opponent"))
    assert made.status_code == 201, made.content
    c = made.json()
    assert (c["challenger"], c["opponent"], c["status"]) == ("bot-a", "Bot-B", "open")
    assert (c["game"], c["timing"], c["move_limit"], c["days"]) == ("thud", "quickfire", 30, 4)
    assert (c["first"], c["rated_match"], c["battle"]) == ("opponent", False, None)
    assert c["expires_at"] > c["created_at"]
    row = Challenge.objects.get()
    assert (row.challenger, row.opponent, row.move_limit) == (a, b, 30)

    assert listed(client, token_a) == {"received": [], "sent": [c]}
    assert listed(client, token_b) == {"received": [c], "sent": []}


def test_the_opponent_accepts_and_is_seated_in_the_battle_it_names(client, pair):
    _a, b, token_a, token_b = pair
    c = post(client, CHALLENGES, token_a, body(first="challenger")).json()
    accepted = answer(client, c["id"], "accept", token_b)
    assert accepted.status_code == 200, accepted.content
    done = accepted.json()
    assert done["status"] == "accepted" and done["battle"] is not None
    battle = Battle.objects.get(pk=done["battle"])
    assert (battle.first_user.username, battle.second_user) == ("bot-a", b)

    state = client.get(f"/api/v1/battles/{done['battle']}/state", headers=bearer(token_b))
    assert state.status_code == 200
    assert state.json()["you"] == battle.rules.sides[1].key
    assert state.json()["awaits_players"] is True
    # Answered: no longer open, so in neither list.
    assert listed(client, token_a) == listed(client, token_b) == {"received": [], "sent": []}


def test_accepting_twice_applies_once(client, pair):
    _a, _b, token_a, token_b = pair
    c = post(client, CHALLENGES, token_a, body()).json()
    first = answer(client, c["id"], "accept", token_b)
    assert first.status_code == 200
    before = stored()
    again = answer(client, c["id"], "accept", token_b)
    assert again.status_code == 409 and again["Content-Type"] == PROBLEM
    assert "no longer open" in again.json()["detail"]
    assert stored() == before and Battle.objects.count() == 1


def test_accepting_a_rated_match_answers_its_first_battle(client, pair):
    _a, _b, token_a, token_b = pair
    c = post(client, CHALLENGES, token_a, body(rated_match=True)).json()
    assert c["rated_match"] is True
    done = answer(client, c["id"], "accept", token_b).json()
    assert done["battle"] == CasualMatch.objects.get().battle_1_id


def test_the_opponent_declines_and_the_challenger_cancels(client, pair):
    _a, _b, token_a, token_b = pair
    one = post(client, CHALLENGES, token_a, body()).json()
    declined = answer(client, one["id"], "decline", token_b)
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    two = post(client, CHALLENGES, token_a, body(timing="correspondence")).json()
    cancelled = answer(client, two["id"], "cancel", token_a)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert Challenge.objects.get(pk=one["id"]).status == Challenge.Status.DECLINED
    assert Challenge.objects.get(pk=two["id"]).status == Challenge.Status.CANCELLED
    assert Battle.objects.count() == 0


def test_each_side_may_answer_only_as_itself(client, pair):
    _a, _b, token_a, token_b = pair
    c = post(client, CHALLENGES, token_a, body()).json()
    before = stored()
    # The challenger cannot accept or decline their own challenge, nor the opponent cancel.
    for action, token in (("accept", token_a), ("decline", token_a), ("cancel", token_b)):
        r = answer(client, c["id"], action, token)
        assert r.status_code == 409 and r["Content-Type"] == PROBLEM, (action, r.content)
    assert stored() == before


def test_a_stranger_finds_no_challenge_of_others_but_may_accept_a_seek(client, pair):
    a, b, token_a, _token_b = pair
    stranger = token_for(UserFactory(username="stranger"))
    c = post(client, CHALLENGES, token_a, body()).json()
    before = stored()
    for action in ("accept", "decline", "cancel"):
        r = answer(client, c["id"], action, stranger)
        assert r.status_code == 404 and r["Content-Type"] == PROBLEM, action
    assert answer(client, c["id"] + 99, "accept", stranger).status_code == 404
    assert stored() == before
    assert listed(client, stranger) == {"received": [], "sent": []}

    # A public seek (made on the page) is anyone's to accept.
    seek = challenges.create_challenge(by=b, game="thud", timing="quickfire", now=timezone.now())
    taken = answer(client, seek.pk, "accept", stranger)
    assert taken.status_code == 200 and taken.json()["opponent"] == "stranger"
    assert answer(client, c["id"], "accept", token_for(a)).status_code == 409


def test_a_token_is_needed_with_a_playing_scope(client, pair):
    a, _b, token_a, token_b = pair
    c = post(client, CHALLENGES, token_a, body()).json()
    reader = token_for(a, scopes=("read",))
    before = stored()

    no_token = client.post(CHALLENGES, data=json.dumps(body()), content_type="application/json")
    assert no_token.status_code == 401 and no_token["Content-Type"] == PROBLEM
    assert client.get(CHALLENGES).status_code == 401
    assert answer(client, c["id"], "accept", "thud_not-a-token").status_code == 401
    scoped = post(client, CHALLENGES, reader, body(timing="correspondence"))
    assert scoped.status_code == 403 and "play" in scoped.json()["detail"]
    assert client.get(CHALLENGES, headers=bearer(reader)).status_code == 403
    assert answer(client, c["id"], "cancel", reader).status_code == 403
    # The session of a logged-in user does not act for them.
    client.force_login(a)
    session = client.post(CHALLENGES, data=json.dumps(body()), content_type="application/json")
    assert session.status_code == 401
    assert client.get(CHALLENGES).status_code == 401
    assert stored() == before


@pytest.mark.parametrize(
    ("sent", "field", "words"),
    [
        (body(game="chess"), "game", "valid choice"),
        (body(timing="blitz"), "timing", "valid choice"),
        (body(first="dealer"), "first", "valid choice"),
        (body(move_limit=7), "move_limit", "valid choice"),
        (body(days=0), "days", "greater than or equal to 1"),
        (body(opponent="nobody-at-all"), "opponent", "no user with that name"),
        (body(opponent="BOT-A"), "opponent", "cannot challenge yourself"),
    ],
)
def test_bad_choices_an_unknown_user_and_yourself_are_422_and_make_nothing(
    client, pair, sent, field, words
):
    _a, _b, token_a, _token_b = pair
    r = post(client, CHALLENGES, token_a, sent)
    assert r.status_code == 422 and r["Content-Type"] == PROBLEM, r.content
    errors = r.json()["errors"]
    assert [e["loc"] for e in errors] == [["body", field]]
    assert words in errors[0]["msg"]
    assert Challenge.objects.count() == 0


@pytest.mark.parametrize(
    "sent", [{}, {"game": "thud", "timing": "quickfire"}, body(opponent=" "), body(days="x")]
)
def test_a_malformed_body_is_422_and_opens_no_seek(client, pair, sent):
    _a, _b, token_a, _token_b = pair
    r = post(client, CHALLENGES, token_a, sent)
    assert r.status_code == 422 and r["Content-Type"] == PROBLEM, r.content
    assert Challenge.objects.count() == 0


def test_the_domain_limits_are_409_in_the_pages_words(client, pair, monkeypatch):
    _a, _b, token_a, _token_b = pair
    assert post(client, CHALLENGES, token_a, body()).status_code == 201
    twice = post(client, CHALLENGES, token_a, body(timing="correspondence"))
    assert twice.status_code == 409 and twice["Content-Type"] == PROBLEM
    assert "already have an open challenge to Bot-B" in twice.json()["detail"]

    monkeypatch.setattr(challenges, "MAX_LIVE_OFFERS", 1)
    other = UserFactory(username="other")
    full = post(client, CHALLENGES, token_a, body(opponent="other"))
    assert full.status_code == 409 and "open challenges and seeks" in full.json()["detail"]
    assert not Challenge.objects.filter(opponent=other).exists()
    assert Challenge.objects.count() == 1


def test_an_expired_challenge_cannot_be_accepted(client, pair):
    _a, _b, token_a, token_b = pair
    c = post(client, CHALLENGES, token_a, body()).json()
    Challenge.objects.filter(pk=c["id"]).update(expires_at=timezone.now())
    before = stored()
    r = answer(client, c["id"], "accept", token_b)
    assert r.status_code == 409 and "expired" in r.json()["detail"]
    assert stored() == before
    assert listed(client, token_b) == {"received": [], "sent": []}


def test_the_operations_are_in_the_document_with_their_security(client):
    document = client.get("/api/v1/openapi.json").json()
    make = document["paths"]["/api/v1/challenges"]["post"]
    assert make["security"] == [{"TokenAuth": []}]
    assert set(make["responses"]) >= {"201", "401", "403", "409", "422", "429"}
    for action in ("accept", "decline", "cancel"):
        operation = document["paths"][f"/api/v1/challenges/{{challenge_id}}/{action}"]["post"]
        assert set(operation["responses"]) >= {"200", "404", "409"}
        assert operation["tags"] == ["challenges"]
