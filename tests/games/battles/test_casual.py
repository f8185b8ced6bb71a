"""Casual battles (no tournament): creation, seats, correspondence clock, both games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from games.battles.errors import NotAllowed
from games.battles.play import submit_move
from games.battles.settle import settle
from games.battles.starting import create_casual_battle
from games.models.battle import DAY_MS, Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from games.web import permissions
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def t0():
    return timezone.now().replace(microsecond=0)


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def bob():
    return UserFactory(username="bob")


def test_casual_thud_battle_starts_with_the_first_user_on_the_dwarfs(alice, bob, t0):
    b = create_casual_battle(game="thud", first=alice, second=bob, timing="quickfire", now=t0)
    assert (b.match, b.game, b.status, b.side_to_move) == (None, "thud", "running", "dwarf")
    assert (b.think_ms, b.move_ms, b.timeout_rule) == (15_000, 5_000, "forfeit_turn")
    assert permissions.battle_side_of(alice, b) == "dwarf"
    assert permissions.battle_side_of(bob, b) == "troll"
    assert permissions.battle_side_of(UserFactory(), b) is None
    assert permissions.battle_side_of(AnonymousUser(), b) is None


def test_seat_users_are_the_players_and_nobody_referees_a_casual_battle(alice, bob, t0):
    b = create_casual_battle(game="cavalli", first=alice, second=bob, now=t0)
    assert permissions.access_battle_public(AnonymousUser(), b.pk) == b
    assert permissions.access_battle_for_player(bob, b.pk)[1] == "black"
    with pytest.raises(PermissionDenied):
        permissions.access_battle_for_player(UserFactory(), b.pk)
    with pytest.raises(PermissionDenied):
        permissions.access_battle_for_referee(UserFactory(is_superuser=True), b.pk)


def test_cavalli_moves_go_through_the_interface_and_store_canonical_notation(alice, bob, t0):
    b = create_casual_battle(game="cavalli", first=alice, second=bob, board_seed=7, now=t0)
    game = b.rules
    notation = game.legal_moves(game.deserialise(b.board))[0]
    b = submit_move(b.pk, side="white", version=b.clock_version, notation=notation.lower(), now=t0)
    assert (b.ply, b.side_to_move) == (1, "black")
    stored = Move.objects.get(battle=b)
    assert (stored.notation, stored.side) == (notation, "white")
    assert game.scores(game.deserialise(b.board))["white"] > 0
    with pytest.raises(NotAllowed):
        submit_move(b.pk, side="black", version=b.clock_version, notation="A1", now=t0)
    assert Battle.objects.get(pk=b.pk).ply == 1


def test_correspondence_gives_days_per_move_and_an_expiry_loses_the_game(alice, bob, t0):
    b = create_casual_battle(
        game="thud", first=alice, second=bob, timing="correspondence", days=3, now=t0
    )
    assert b.deadline == t0 + timedelta(days=3)
    assert (b.think_ms, b.timeout_rule, b.commit_rule) == (3 * DAY_MS, "lose_game", "none")
    b = submit_move(b.pk, side="dwarf", version=1, notation="dF1-F5", now=t0)
    assert b.deadline == t0 + timedelta(days=3)
    later = t0 + timedelta(days=3, seconds=1)
    b = settle(b.pk, via=ClockEvent.Via.SWEEP, now=later)
    assert (b.status, b.finished_reason, b.winner) == ("finished", "lost_on_time", "dwarf")
    assert b.scores == {"dwarf": 32, "troll": 32}
    assert not Move.objects.filter(battle=b, kind="forfeit").exists()
    assert ClockEvent.objects.filter(battle=b, kind=clock.GAME_LOST_ON_TIME).count() == 1


def test_fourteen_days_fit_the_clock_columns(alice, bob, t0):
    b = create_casual_battle(
        game="cavalli", first=alice, second=bob, timing="correspondence", days=14, now=t0
    )
    b.refresh_from_db()
    assert b.deadline == t0 + timedelta(days=14)


def test_casual_quickfire_forfeits_then_loses_instead_of_waiting_for_a_referee(alice, bob, t0):
    b = create_casual_battle(game="thud", first=alice, second=bob, now=t0)
    now = t0
    for _ in range(5):  # dwarf, troll, dwarf, troll, dwarf: the dwarfs' third forfeit
        now = now + timedelta(milliseconds=b.think_ms + b.move_ms + b.grace_ms)
        b = settle(b.pk, via=ClockEvent.Via.SWEEP, now=now)
    assert (b.status, b.finished_reason, b.winner) == ("finished", "lost_on_time", "troll")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game": "chess"},
        {"timing": "blitz"},
        {"timing": "correspondence", "days": 0},
        {"timing": "correspondence", "days": 15},
        {"same_user": True},
    ],
)
def test_bad_casual_requests_are_refused_and_create_nothing(alice, bob, kwargs):
    args = {"game": "thud", "first": alice, "second": bob, "timing": "quickfire"}
    if kwargs.pop("same_user", False):
        args["second"] = alice
    with pytest.raises(NotAllowed) as caught:
        create_casual_battle(**(args | kwargs), now=timezone.now())
    assert caught.value.message
    assert not Battle.objects.exists()


def test_a_cavalli_game_ends_when_the_mover_has_no_move_and_keeps_its_scores(alice, bob, t0):
    b = create_casual_battle(game="cavalli", first=alice, second=bob, board_seed=3, now=t0)
    game = b.rules
    state = game.deserialise(b.board)
    while b.status == "running":
        notation = game.legal_moves(state)[0]
        b = submit_move(
            b.pk, side=b.side_to_move, version=b.clock_version, notation=notation, now=t0
        )
        state = game.deserialise(b.board)
    assert b.finished_reason == "no_legal_move"
    assert b.scores == game.scores(state)
    assert Battle.objects.get(pk=b.pk).winner == (game.outcome(state).winner or "")


@pytest.mark.parametrize("game", ["thud", "cavalli"])
def test_a_forfeited_turn_passes_the_turn_in_the_game_state_too(alice, bob, t0, game):
    b = create_casual_battle(game=game, first=alice, second=bob, now=t0)
    later = t0 + timedelta(milliseconds=b.think_ms + b.move_ms + b.grace_ms)
    b = settle(b.pk, via=ClockEvent.Via.SWEEP, now=later)
    rules = b.rules
    second = rules.sides[1].key
    assert b.side_to_move == second == rules.side_to_move(rules.deserialise(b.board))
    move = rules.legal_moves(rules.deserialise(b.board))[0]
    b = submit_move(b.pk, side=second, version=b.clock_version, notation=move, now=later)
    assert b.ply == 2
