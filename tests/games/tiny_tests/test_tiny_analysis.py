"""A finished Tiny battle analysed by the shared maths (games.rules.analysis) with Tiny's
thresholds: the full search's moves cost nothing, a deliberate blunder is judged one."""

from __future__ import annotations

import pytest

from games.rules.analysis import analyse_battle, margin, positions
from games.rules.interface import BLUNDER, InvalidMove
from tests.games.tiny.game import TinyGame
from tests.games.tiny_tests import brute

GAME = TinyGame()


def still() -> float:
    return 0.0


def best_line_with_a_blunder() -> tuple[list[str], int, int]:
    """A battle of level-5 moves but one: at the first position where a move loses at
    least a blunder's worth (by the brute force's exact values), that move. Returns the
    moves, the blunder's index and what it cost (hundredths of a point)."""
    threshold = GAME.analysis_thresholds.blunder
    pos, moves, blunder, cost = brute.START, [], None, 0
    while nexts := brute.moves(pos):
        values = {m: -brute.value(new) for m, new in nexts}
        best = max(values.values())
        worst = min(values, key=lambda m: values[m])
        loss = margin(best) - margin(values[worst])
        if blunder is None and loss >= threshold:
            move, blunder, cost = worst, len(moves), loss
        else:
            move = GAME.bot_move(
                GAME.deserialise(brute.compact(pos)), level=5, seed=0, budget_ms=1000, clock=still
            )
        moves.append(move)
        pos = dict(nexts)[move]
    assert blunder is not None, "no position of the best line allows a blunder"
    return moves, blunder, cost


def test_the_deliberate_blunder_is_judged_a_blunder_and_nothing_else_is():
    moves, blunder, cost = best_line_with_a_blunder()
    states = positions(GAME, GAME.initial_state(), moves)
    assert GAME.outcome(states[-1]) is not None
    rows = analyse_battle(GAME, states, moves, budget_ms=1000, clock=still)
    assert [row.move for row in rows] == moves
    assert rows[blunder].judgement == BLUNDER
    assert rows[blunder].loss == cost / 100
    assert rows[blunder].best != ""
    assert rows[blunder].mistake
    others = [row for i, row in enumerate(rows) if i != blunder]
    assert all(row.judgement == "" and row.loss == 0 for row in others)
    assert [row.side for row in rows] == [("gold", "silver")[i % 2] for i in range(len(moves))]
    assert rows[-1].reply == ""
    # The last row's evaluation is the battle's margin, from gold's view.
    scores = GAME.scores(states[-1])
    assert rows[-1].evaluation == scores["gold"] - scores["silver"]


def test_a_forfeited_turn_is_skipped_and_the_thresholds_judge_by_loss():
    moves: list[str | None] = ["A1-A2", None, "B1-B2"]
    states = positions(GAME, GAME.initial_state(), moves)
    rows = analyse_battle(GAME, states, moves, budget_ms=1000, clock=still)
    assert [row.ply for row in rows] == [1, 3]
    thresholds = GAME.analysis_thresholds
    assert [thresholds.judge(loss) for loss in (99, 100, 200, 299, 300)] == [
        "",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
    ]


def test_a_move_limit_is_passed_on_to_the_search():
    moves = ["A1-A2", "C3-C2"]
    states = positions(GAME, GAME.initial_state(), moves)
    rows = analyse_battle(GAME, states, moves, budget_ms=1000, clock=still, max_plies=2)
    # The battle ends at the limit after C3-C2 with three pawns each: a draw.
    assert rows[-1].evaluation == 0 and rows[-1].reply == ""


def test_a_move_the_rules_refuse_stops_the_positions():
    with pytest.raises(InvalidMove):
        positions(GAME, GAME.initial_state(), ["A1-A2", "A2-A3"])
