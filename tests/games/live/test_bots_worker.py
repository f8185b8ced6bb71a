"""A quickfire Thud battle against the computer played to the end with real processes: a
Celery worker on the bots queue (the Procfile's ``bots`` options), the clock worker and
beat, a real Redis. The player's moves are random legal moves submitted here; the
computer's arrive through the queue, on the battle's channel like a person's."""

from __future__ import annotations

import json
import random

import pytest
import redis
from django.db import transaction
from django.utils import timezone

from games.battles.play import submit_move
from games.events import publish
from games.models.battle import Battle
from games.models.history import Move
from play import computer
from tests.factories import UserFactory
from tests.processes import wait_for

pytestmark = [pytest.mark.clock, pytest.mark.django_db(transaction=True)]

PLIES = 8


def test_a_player_plays_a_quickfire_battle_against_the_computer_to_the_end(cluster_factory):
    cluster = cluster_factory(bots=True)
    listener = redis.Redis.from_url(cluster.redis_url).pubsub()
    player = UserFactory()
    with transaction.atomic():  # the limit is set before the computer's first move is queued
        battle = computer.start(
            by=player,
            game="thud",
            level=1,
            side=computer.COMPUTER_FIRST,
            time_control=computer.QUICKFIRE,
            now=timezone.now(),
        )
        Battle.objects.filter(pk=battle.pk).update(max_plies=PLIES)
        listener.subscribe(publish.channel(battle.pk))
    rules, rng = battle.rules, random.Random(27)

    def players_turn_or_over():
        b = Battle.objects.get(pk=battle.pk)
        return b if b.is_finished or b.side_to_move != b.bot_side else None

    while True:
        current = wait_for(players_turn_or_over, timeout=30, what="the computer's move")
        if current.is_finished:
            break
        notation = rng.choice(rules.legal_moves(rules.deserialise(current.board)))
        side = current.side_to_move
        submit_move(
            battle.pk,
            side=side,
            version=current.clock_version,
            notation=notation,
            now=timezone.now(),
        )

    done = Battle.objects.get(pk=battle.pk)
    assert done.finished_reason == "move_limit" and done.ply == PLIES
    moves = list(Move.objects.filter(battle=battle).order_by("ply"))
    assert [m.ply for m in moves] == list(range(PLIES))  # each ply recorded once
    assert all(m.kind != "forfeit" for m in moves)
    computers = [m for m in moves if m.side == done.bot_side]
    assert [m.ply for m in computers] == [0, 2, 4, 6]
    # Every move (the computer's too) legal in the position it was played in.
    state = rules.initial_state({"board_seed": done.board_seed})
    for m in moves:
        assert m.notation in rules.legal_moves(state), m.notation
        state, _info = rules.apply(state, m.notation)
    assert rules.serialise(state) == done.board
    # Each of the computer's moves was published on the battle's channel (as SSE sends it).
    published = set()
    while (message := listener.get_message(timeout=0.5)) is not None:
        if message["type"] == "message":
            published.add(json.loads(message["data"])["ply"])
    assert {m.ply + 1 for m in computers} <= published
    listener.close()
