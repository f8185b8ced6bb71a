"""A casual quickfire battle made by a challenge ends at its move limit, scored as it stands,
with real processes: the clock worker and beat, a real Redis (``tests/fixtures/processes``).

Both players play every turn but the last; the clock worker forfeits that one (a forfeited
turn counts toward the limit, as in a tournament) and so ends the battle at the limit. The
clock is scaled (3 s to think, 1 s to move) so the last turn runs out in seconds.
"""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from games.battles import joining
from games.battles.play import submit_move
from games.engines import registry
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from play import challenges
from tests.factories import UserFactory
from tests.processes import wait_for

pytestmark = [pytest.mark.clock, pytest.mark.django_db(transaction=True)]

MOVES_PER_SIDE = 24
PLIES = 2 * MOVES_PER_SIDE
#: A Cavalli board (seed) on which a game can last 47 plies: most end sooner (random
#: play, 30 boards: 15-43 plies), and the limit is only reached by a long one.
CAVALLI_SEED = 6


def long_line(game, state, plies: int) -> list[str]:
    """``plies`` legal moves from ``state`` that do not end the game: a depth-first search,
    the moves leaving the most replies first (Thud never ends this soon: the first path)."""

    def search(state, line):
        if len(line) == plies:
            return line
        if game.outcome(state) is not None:
            return None
        replies = []
        for move in game.legal_moves(state):
            after, _info = game.apply(state, move)
            replies.append((len(game.legal_moves(after)), move, after))
        replies.sort(key=lambda r: -r[0])
        for _n, move, after in replies[:3]:
            found = search(after, [*line, move])
            if found:
                return found
        return None

    found = search(state, [])
    assert found, "no line that long on this board"
    return found


@pytest.mark.parametrize("game_key", ["thud", "cavalli"])
def test_a_casual_quickfire_battle_ends_at_its_move_limit_with_the_score_as_it_stands(
    cluster_factory, game_key
):
    cluster_factory()
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    c = challenges.create_challenge(
        by=alice,
        opponent=bob,
        game=game_key,
        timing="quickfire",
        first="challenger",
        move_limit=MOVES_PER_SIDE,
        now=timezone.now(),
    )
    battle = challenges.accept(c.pk, by=bob, now=timezone.now())
    assert battle.max_plies == PLIES and battle.status == "pending"
    scaled = {"think_ms": 3_000, "move_ms": 1_000}
    if game_key == "cavalli":
        scaled["board_seed"] = CAVALLI_SEED
    Battle.objects.filter(pk=battle.pk).update(**scaled)
    rules = registry.get(game_key)
    first, second = (side.key for side in rules.sides)
    joining.join(battle.pk, side=first, now=timezone.now())
    joining.join(battle.pk, side=second, now=timezone.now())
    running = Battle.objects.get(pk=battle.pk)
    assert running.status == "running"
    state = rules.deserialise(running.board)
    if game_key == "thud":
        rng = random.Random(42)
        line = []
        for _ in range(PLIES - 1):
            line.append(rng.choice(rules.legal_moves(state)))
            state, _info = rules.apply(state, line[-1])
    else:
        line = long_line(rules, state, PLIES - 1)

    for notation in line:  # every turn but the last, each well within its time
        b = Battle.objects.get(pk=battle.pk)
        submit_move(
            battle.pk,
            side=b.side_to_move,
            version=b.clock_version,
            notation=notation,
            now=timezone.now(),
        )

    def finished():
        b = Battle.objects.get(pk=battle.pk)
        return b if b.is_finished else None

    done = wait_for(finished, timeout=30, what="the clock worker to end the battle")
    assert (done.finished_reason, done.ply) == (clock.REASON_MOVE_LIMIT, PLIES)
    moves = list(Move.objects.filter(battle_id=battle.pk).order_by("ply"))
    assert [m.ply for m in moves] == list(range(PLIES))
    assert [m.notation for m in moves[:-1]] == line and moves[-1].kind == "forfeit"
    # The last turn was forfeited by the clock's processes, not by a page or a player.
    expiry = ClockEvent.objects.get(battle_id=battle.pk, kind=clock.TURN_EXPIRED)
    assert expiry.via in {ClockEvent.Via.TIMER, ClockEvent.Via.SWEEP}
    # The score is the engine's for the position reached: replay every move, then the pass.
    replayed = rules.initial_state({"board_seed": done.board_seed})
    for notation in line:
        replayed, _info = rules.apply(replayed, notation)
    assert rules.outcome(replayed) is None  # the game went on: the limit ended it
    replayed = rules.pass_turn(replayed)
    assert rules.serialise(replayed) == done.board
    scores = rules.scores(replayed)
    assert done.scores == scores
    one, two = scores[first], scores[second]
    assert done.winner == ("" if one == two else (first if one > two else second))
