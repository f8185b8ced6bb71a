"""The analysis of a battle, pure (games.rules.analysis): a real short Thud game whose troll
move hangs a troll is flagged with its cost, the best move and the punishing reply.

The search is bounded by a fake clock that ticks a millisecond at each look (the search
looks every 64 nodes): a node budget, the same on any machine, so the rows are exact."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

from games.rules import analysis
from games.rules.interface import WIN
from games.thud.game import ThudGame

#: 1. d F1-F5 (into the trolls' reach) T G7-F6? (next to the dwarf: hangs the troll)
#: 2. d F5-F6 xF6 (the dwarf takes it).
MOVES = ["d F1-F5", "T G7-F6", "d F5-F6 xF6"]
#: With Tick: 120 looks, 7 680 nodes per position, enough to finish depth 1 in these
#: positions (6 812 nodes at most, measured with ``max_depth=1``).
BUDGET_MS = 120


class Tick:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def analyse(moves, *, max_plies=None, budget_ms=BUDGET_MS):
    game = ThudGame("subset")
    states = analysis.positions(game, game.initial_state(), moves)
    return analysis.analyse_battle(
        game, states, moves, budget_ms=budget_ms, clock=Tick(), max_plies=max_plies
    )


@pytest.fixture(scope="module")
def rows():
    return analyse(MOVES)


def test_the_hanging_troll_is_a_mistake_with_its_cost_best_move_and_reply(rows):
    blunder = rows[1]
    assert (blunder.ply, blunder.side, blunder.move) == (2, "troll", "T G7-F6")
    assert blunder.mistake and 4 <= blunder.loss < 5  # a troll, less what the trolls keep
    assert blunder.best == "T G7-G4 xF5"  # the trolls' best: take the advanced dwarf
    assert blunder.reply == "d F5-F6 xF6"  # what punishes it: the dwarf takes the troll
    # After the blunder the dwarfs (the first side) are ahead: a troll (4) less the dwarf
    # the trolls take back on F6 (1), which the search now sees (T H7-F5 xF6).
    assert blunder.evaluation is not None and 2.5 < blunder.evaluation < 4


def test_the_capture_that_punishes_it_is_no_mistake(rows):
    take = rows[2]
    assert take.move == "d F5-F6 xF6" and not take.mistake and take.loss == 0
    assert take.best == ""  # the move played is the best found
    assert take.evaluation is not None and 2.5 < take.evaluation < 4
    assert take.reply == "T H7-F5 xF6"  # the trolls' best answer takes the dwarf back


def test_each_move_played_has_one_row_in_order(rows):
    assert [r.ply for r in rows] == [1, 2, 3]
    assert [r.side for r in rows] == ["dwarf", "troll", "dwarf"]
    assert all(r.loss >= 0 for r in rows)
    assert analysis.PlyRow.from_dict(rows[1].as_dict()) == rows[1]


def test_a_forfeited_turn_is_skipped():
    # The dwarfs forfeit ply 3: the trolls move again; no row for the pass.
    moves = ["d F1-F5", "T G7-G6", None, "T G6-G5"]
    rows = analyse(moves, budget_ms=1)  # what the rows say needs no search
    assert [r.ply for r in rows] == [1, 2, 4]
    assert rows[2].side == "troll"


def test_the_move_limit_ends_the_battle_at_its_last_ply():
    # With two plies allowed the battle ends after the troll's move: no reply, and the
    # evaluation is the final margin (32 dwarfs - 8 trolls x 4 = 0, then F5 taken: -1).
    moves = ["d F1-F5", "T G7-G4 xF5"]
    rows = analyse(moves, max_plies=2, budget_ms=1)
    assert rows[1].reply == "" and rows[1].evaluation == -1.0


def test_a_played_move_the_search_did_not_score_is_scored_after_it():
    # Under subset the search scores only all-or-none captures; a troll that spares one
    # of two dwarfs it could take is judged by the search after it.
    game = ThudGame("subset")
    moves = ["d F1-F5", "T G7-F6", "d G1-D4", "T F6-E5 xF5"]
    states = analysis.positions(game, game.initial_state(), moves)
    scored = game.analyse(states[3], budget_ms=BUDGET_MS, clock=Tick())
    assert scored.score_of("T F6-E5 xF5") is None  # D4 spared: not in the search's set
    # The last move alone (the analysis may start from any position).
    (row,) = analysis.analyse_battle(game, states[3:], moves[3:], budget_ms=BUDGET_MS, clock=Tick())
    assert row.best == "T F6-E5 xD4 xF5" and row.mistake
    assert row.reply == "d D4-E5 xE5"  # the spared dwarf takes the troll


def test_a_game_without_a_search_is_refused():
    class NoSearch:
        key = "none"

    with pytest.raises(TypeError):
        analysis.analyse_battle(NoSearch(), [None], [], budget_ms=1, clock=Tick())  # type: ignore[arg-type]


def test_finished_scores_count_their_margin():
    assert analysis.margin(WIN + 400) == 400 and analysis.margin(-WIN - 100) == -100
    assert analysis.margin(250) == 250


@pytest.mark.parametrize(
    "module", ["games.rules.analysis", "games.analysis.chart", "games.analysis.runs"]
)
def test_doctests(module, db):
    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert attempted and not failures


def test_the_analysis_is_pure_python():
    source = Path(analysis.__file__).read_text()
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
    assert not any(n.split(".")[0] in ("django", "celery", "tournaments") for n in names)
