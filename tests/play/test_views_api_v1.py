"""Playing a battle through API v1 (play/views_api_v1.py) as a token's user: the same gates and
workflows as the battle page, compare-and-set on the version, refusals as problems that
change nothing."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from accounts import tokens
from games.battles.starting import create_casual_battle
from games.models.battle import Battle
from games.models.history import Move
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


def token_for(user, scopes=("play",)) -> str:
    return tokens.make_token(user, name="engine", scopes=scopes, now=timezone.now()).plain


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def quickfire(first, second, game="thud", *, await_players=True) -> Battle:
    return create_casual_battle(
        game=game, first=first, second=second, await_players=await_players, now=timezone.now()
    )


def url(battle: Battle, action: str) -> str:
    return f"/api/v1/battles/{battle.pk}/{action}"


def post(client, battle, action, token, body=None):
    return client.post(
        url(battle, action),
        data=json.dumps(body or {}),
        content_type="application/json",
        headers=bearer(token),
    )


def state(client, battle, token) -> dict:
    r = client.get(url(battle, "state"), headers=bearer(token))
    assert r.status_code == 200, r.content
    return r.json()


def stored(battle: Battle) -> tuple:
    """What a refused action must leave as it was."""
    b = Battle.objects.get(pk=battle.pk)
    return (b.clock_version, b.board, b.status, b.ply, b.touched_square, b.end_offered_by)


@pytest.fixture
def seated():
    first, second = UserFactory(username="first-engine"), UserFactory(username="second-engine")
    battle = quickfire(first, second)
    return battle, token_for(first), token_for(second)


def first_legal_move(s: dict, battle: Battle) -> str:
    game = battle.rules
    return game.legal_moves(game.deserialise(s["position"]))[0]


def test_both_players_ready_start_the_clock_and_a_move_is_played_once(client, seated):
    battle, first, second = seated
    s = state(client, battle, first)
    assert s["awaits_players"] is True and s["status"] == "pending"
    assert s["you"] == battle.rules.sides[0].key
    assert state(client, battle, second)["you"] == battle.rules.sides[1].key

    assert post(client, battle, "ready", first).json()["awaits_players"] is True
    started = post(client, battle, "ready", second).json()
    assert started["status"] == "running"
    assert started["side_to_move"] == battle.rules.sides[0].key
    assert started["clock"]["ends_ms"] > started["server_now_ms"]

    move = first_legal_move(started, battle)
    body = {"move": move, "version": started["version"]}
    after = post(client, battle, "move", first, body)
    assert after.status_code == 200, after.content
    moved = after.json()
    assert moved["ply"] == 1 and moved["version"] > started["version"]
    assert moved["side_to_move"] == battle.rules.sides[1].key

    # The same request again (a retry after a lost answer) applies nothing and says so
    # quietly: the battle as it is.
    again = post(client, battle, "move", first, body)
    assert again.status_code == 200 and again.json()["ply"] == 1
    assert Move.objects.filter(battle=battle).count() == 1


def test_a_stale_version_an_illegal_move_and_a_move_out_of_turn_change_nothing(client, seated):
    battle, first, second = seated
    post(client, battle, "ready", first)
    s = post(client, battle, "ready", second).json()
    before = stored(battle)
    move = first_legal_move(s, battle)

    stale = post(client, battle, "move", first, {"move": move, "version": s["version"] - 1})
    illegal = post(client, battle, "move", first, {"move": "Z99-Q0", "version": s["version"]})
    out_of_turn = post(client, battle, "move", second, {"move": move, "version": s["version"]})
    malformed = post(client, battle, "move", first, {"move": move})
    assert (stale.status_code, illegal.status_code) == (409, 422)
    assert (out_of_turn.status_code, malformed.status_code) == (409, 422)
    for r in (stale, illegal, out_of_turn, malformed):
        assert r["Content-Type"] == PROBLEM
    assert "changed meanwhile" in stale.json()["detail"]
    assert "not legal" in illegal.json()["detail"]
    assert "not your turn" in out_of_turn.json()["detail"]
    assert stored(battle) == before


def test_a_token_is_needed_with_a_playing_scope_and_only_the_players_may_act(client, seated):
    battle, first, _second = seated
    before = stored(battle)
    stranger = token_for(UserFactory(username="watcher"))
    reader = token_for(battle.first_user, scopes=("read",))

    no_token = client.post(url(battle, "ready"), content_type="application/json")
    assert no_token.status_code == 401 and no_token["Content-Type"] == PROBLEM
    assert no_token["WWW-Authenticate"].startswith("Bearer")
    assert post(client, battle, "ready", "thud_not-a-token").status_code == 401
    scoped = post(client, battle, "ready", reader)
    assert scoped.status_code == 403 and "play" in scoped.json()["detail"]
    assert post(client, battle, "ready", stranger).status_code == 403
    # A reader and a stranger may read the state (as they may watch the page), not act.
    assert state(client, battle, reader)["you"] == battle.rules.sides[0].key
    assert state(client, battle, stranger)["you"] is None
    assert stored(battle) == before


def test_a_revoked_token_is_refused(client, seated):
    battle, _first, _second = seated
    new = tokens.make_token(battle.first_user, name="old", scopes=("play",), now=timezone.now())
    tokens.revoke(battle.first_user, new.token.pk, now=timezone.now())
    r = post(client, battle, "ready", new.plain)
    assert r.status_code == 401 and "revoked" in r.json()["detail"]
    assert Battle.objects.get(pk=battle.pk).first_joined_at is None


def test_the_session_of_a_logged_in_player_does_not_act_for_them(client, seated):
    battle, _first, _second = seated
    client.force_login(battle.first_user)
    r = client.post(url(battle, "ready"), content_type="application/json")
    assert r.status_code == 401
    assert Battle.objects.get(pk=battle.pk).first_joined_at is None


def test_a_bot_token_plays_too_and_end_offers_end_the_battle_by_agreement(client, seated):
    battle, _first, second = seated
    bot = token_for(battle.first_user, scopes=("bot",))
    post(client, battle, "ready", bot)
    post(client, battle, "ready", second)
    offered = post(client, battle, "end-offer/offer", bot)
    assert offered.status_code == 200
    assert offered.json()["end_offered_by"] == battle.rules.sides[0].key
    assert post(client, battle, "end-offer/nonsense", second).status_code == 422
    ended = post(client, battle, "end-offer/accept", second).json()
    assert ended["status"] == "finished"
    # Over: a move now is refused by the battle's state.
    late = post(client, battle, "move", bot, {"move": "x", "version": ended["version"]})
    assert late.status_code == 409 and "over" in late.json()["detail"]


def test_resigning_names_its_version_and_ends_the_battle(client, seated):
    battle, first, second = seated
    post(client, battle, "ready", first)
    s = post(client, battle, "ready", second).json()
    assert post(client, battle, "resign", second, {"version": s["version"] + 5}).status_code == 409
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.RUNNING
    done = post(client, battle, "resign", second, {"version": s["version"]}).json()
    assert done["status"] == "finished" and done["winner"] == battle.rules.sides[0].key


def test_the_operations_are_in_the_document_with_their_security(client):
    document = client.get("/api/v1/openapi.json").json()
    move = document["paths"]["/api/v1/battles/{battle_id}/move"]["post"]
    assert move["security"] == [{"TokenAuth": []}]
    assert set(move["responses"]) >= {"200", "401", "403", "409", "422", "429"}
    assert document["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"


def test_a_touched_piece_must_be_the_one_moved(client, seated):
    battle, first, second = seated
    post(client, battle, "ready", first)
    s = post(client, battle, "ready", second).json()
    game = battle.rules
    position = game.deserialise(s["position"])
    moves = {game.apply(position, m)[1].extra["from"]: m for m in game.legal_moves(position)}
    (touched, chosen), (_other_square, other) = list(moves.items())[:2]

    r = post(client, battle, "touch", first, {"square": touched, "version": s["version"]})
    assert r.status_code == 200 and r.json()["touched"] == touched
    version = r.json()["version"]
    refused = post(client, battle, "move", first, {"move": other, "version": version})
    assert refused.status_code == 409 and touched in refused.json()["detail"]
    not_a_square = post(client, battle, "touch", first, {"square": "?", "version": version})
    assert not_a_square.status_code == 422, not_a_square.content
    played = post(client, battle, "move", first, {"move": chosen, "version": version})
    assert played.status_code == 200 and played.json()["ply"] == 1


def test_a_flood_from_one_token_is_a_429_and_nobody_else_is_slowed(client, seated, monkeypatch):
    battle, first, second = seated
    monkeypatch.setattr("accounts.token_auth.RATE_LIMIT", 3)
    # A window may end mid-flood: within 2 × 3 + 1 requests one of them is past the limit.
    answers = [client.get(url(battle, "state"), headers=bearer(first)) for _ in range(7)]
    codes = [a.status_code for a in answers]
    assert set(codes) == {200, 429}, codes
    refused = answers[codes.index(429)]
    assert refused["Content-Type"] == PROBLEM and 1 <= int(refused["Retry-After"]) <= 60
    assert "Too many requests" in refused.json()["detail"]
    # The opponent's token and the pages answer as before.
    assert client.get(url(battle, "state"), headers=bearer(second)).status_code == 200
    assert client.get(f"/battles/{battle.pk}/").status_code == 200
