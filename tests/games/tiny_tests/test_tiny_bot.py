"""Tiny's computer player: every level plays legal moves to the end; the full search is
exact (checked against the brute force's values of every reachable position)."""

from __future__ import annotations

import itertools

import pytest

from games.rules.interface import WIN
from tests.games.tiny.bot.levels import LEVELS, choose_move
from tests.games.tiny.bot.search import MAX_DEPTH, search
from tests.games.tiny.core.notation import format_move
from tests.games.tiny.core.position import Position
from tests.games.tiny.game import TinyGame
from tests.games.tiny_tests import brute

GAME = TinyGame()


def still() -> float:
    return 0.0


def play(gold: int, silver: int, seed: int = 0, plies_left: int | None = None):
    state, moves = GAME.initial_state(), []
    while GAME.outcome(state) is None and (plies_left is None or len(moves) < plies_left):
        level = gold if len(moves) % 2 == 0 else silver
        left = None if plies_left is None else plies_left - len(moves)
        move = GAME.bot_move(
            state, level=level, seed=seed + len(moves), budget_ms=1000, clock=still, plies_left=left
        )
        assert move in GAME.legal_moves(state)
        moves.append(move)
        state = GAME.apply(state, move)[0]
    return moves, state


@pytest.mark.parametrize(("gold", "silver"), list(itertools.product(LEVELS, repeat=2)))
def test_every_pairing_of_levels_plays_a_battle_to_its_outcome(gold, silver):
    for seed in range(3):
        moves, state = play(gold, silver, seed)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.reason == "no_legal_move"
        assert 1 <= len(moves) <= MAX_DEPTH


def test_level_five_against_itself_is_a_draw_the_game_s_value():
    assert brute.value(brute.START) == 0
    _moves, state = play(5, 5)
    assert GAME.outcome(state).winner is None


@pytest.mark.parametrize("weak", [1, 2, 3, 4])
def test_level_five_never_loses(weak):
    for seed in range(10):
        for mine, theirs, me in ((5, weak, "gold"), (weak, 5, "silver")):
            _moves, state = play(mine, theirs, seed)
            assert GAME.outcome(state).winner in (me, None)


def test_the_full_search_scores_every_move_of_every_position_exactly():
    for pos in brute.reachable():
        nexts = brute.moves(pos)
        if not nexts:
            continue
        scores = GAME.analyse(
            GAME.deserialise(brute.compact(pos)), budget_ms=1000, clock=still
        ).scores
        assert dict(scores) == {m: -brute.value(new) for m, new in nexts}, pos
        assert [v for _m, v in scores] == sorted((v for _m, v in scores), reverse=True)


def test_a_move_limit_ends_the_search_with_the_scores():
    # Gold to move, a pawn ahead; one ply left: every move ends the battle where it stands.
    state = GAME.deserialise("gold s../.g./g..")
    scores = dict(GAME.analyse(state, budget_ms=1000, clock=still, plies_left=1).scores)
    assert scores == {"A1-A2": WIN + 100, "B2-B3": WIN + 300, "B2xA3": WIN + 400}
    assert GAME.bot_move(state, level=5, seed=0, budget_ms=1000, clock=still, plies_left=1) == (
        "B2xA3"
    )


def test_the_search_stops_deepening_when_the_clock_runs_out_but_finishes_depth_one():
    ticks = itertools.count()
    result = search(Position.initial(), clock=lambda: float(next(ticks)), budget_ms=1500)
    assert result.depth == 2  # depth 1 at t=1 (under 1.5 s), depth 2 at t=2, then out
    result = search(Position.initial(), clock=lambda: float(next(ticks)), budget_ms=0)
    assert result.depth == 1


def test_a_search_cut_short_scores_the_points_ahead_for_the_mover():
    # Gold's A1 against silver's A3 and B2: taking B2 evens the points; stepping leaves
    # silver a point ahead (neither ends the battle).
    position = Position.from_compact("gold s../.s./g..")
    result = search(position, clock=still, budget_ms=1000, max_depth=1)
    assert [(format_move(m), v) for m, v in result.scores] == [("A1xB2", 0), ("A1-A2", -100)]
    assert result.depth == 1


def test_a_level_is_deterministic_for_a_seed():
    state = GAME.initial_state()
    picks = {GAME.bot_move(state, level=1, seed=s, budget_ms=10, clock=still) for s in range(40)}
    assert len(picks) > 1  # level 1 varies with the seed
    for seed in range(10):
        once = [
            GAME.bot_move(state, level=lv, seed=seed, budget_ms=10, clock=still) for lv in LEVELS
        ]
        again = [
            GAME.bot_move(state, level=lv, seed=seed, budget_ms=10, clock=still) for lv in LEVELS
        ]
        assert once == again


def test_the_levels_are_refused_as_the_engines_refuse_them():
    state = GAME.initial_state()
    with pytest.raises(ValueError, match="level must be 1 to 5"):
        GAME.bot_move(state, level=6, seed=0, budget_ms=10, clock=still)
    with pytest.raises(ValueError, match="plies_left"):
        GAME.bot_move(state, level=5, seed=0, budget_ms=10, clock=still, plies_left=0)
    with pytest.raises(ValueError, match="plies_left"):
        GAME.analyse(state, budget_ms=10, clock=still, plies_left=0)
    over = GAME.deserialise("gold .../s../g..")
    with pytest.raises(ValueError, match="no move"):
        GAME.bot_move(over, level=5, seed=0, budget_ms=10, clock=still)


def test_the_depth_caps_rise_with_the_level():
    caps = [LEVELS[level].max_depth for level in sorted(LEVELS)]
    assert caps == sorted(caps) and caps[-1] == MAX_DEPTH
    assert choose_move(Position.initial(), level=2, clock=still).result.depth == 2
