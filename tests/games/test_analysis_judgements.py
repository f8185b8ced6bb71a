"""Moves judged inaccuracy, mistake or blunder by each game's own thresholds (declared in
its engine package, reached through the game interface), the classes' boundaries, each
side's worst moves first, the graph's points as links to their plies, and the best move
suggested being the best of the position before each move (never a stale one)."""

from __future__ import annotations

import doctest
import re

import pytest

from games.analysis.chart import EvalPoint, eval_chart
from games.cavalli import game as cavalli_game
from games.engines import registry
from games.rules import analysis
from games.rules.interface import BLUNDER, INACCURACY, MISTAKE, BotGame, MoveScores, Thresholds
from games.thud import game as thud_game
from games.web.presenters_analysis import worst_moves
from tests.games.test_analysis import BUDGET_MS, Tick

ENGINES = {"thud": thud_game, "cavalli": cavalli_game}


@pytest.mark.parametrize("key", ["thud", "cavalli"])
def test_each_game_declares_its_thresholds_in_its_own_package(key):
    game = registry.get(key)
    assert isinstance(game, BotGame)
    assert game.analysis_thresholds is ENGINES[key].ANALYSIS_THRESHOLDS
    t = game.analysis_thresholds
    assert 0 < t.inaccuracy < t.mistake < t.blunder


def test_the_games_thresholds_differ_by_their_scales():
    # Cavalli's squares score up to 99 points, Thud's pieces 1 and 4: one threshold for
    # both would flag every Cavalli move or no Thud one.
    thud, cavalli = (registry.get(k).analysis_thresholds for k in ("thud", "cavalli"))
    assert cavalli.inaccuracy > thud.blunder


@pytest.mark.parametrize("key", ["thud", "cavalli"])
def test_losses_are_classed_at_the_boundaries(key):
    t = registry.get(key).analysis_thresholds
    assert t.judge(0) == "" and t.judge(t.inaccuracy - 1) == ""
    assert t.judge(t.inaccuracy) == INACCURACY and t.judge(t.mistake - 1) == INACCURACY
    assert t.judge(t.mistake) == MISTAKE and t.judge(t.blunder - 1) == MISTAKE
    assert t.judge(t.blunder) == BLUNDER and t.judge(100 * t.blunder) == BLUNDER


def test_thresholds_must_rise():
    with pytest.raises(ValueError):
        Thresholds(inaccuracy=200, mistake=100, blunder=400)
    with pytest.raises(ValueError):
        Thresholds(inaccuracy=0, mistake=100, blunder=400)


def _judged(loss: int):
    """The row of a move that cost ``loss`` hundredths (the search's own two scores)."""
    game = registry.get("thud")
    before = analysis._Searched(300, MoveScores((("d A1-A2", 300), ("d B1-B2", 300 - loss)), 1, 1))
    after = analysis._Searched(-(300 - loss), None)
    return analysis._row(game, game.analysis_thresholds, 0, "d B1-B2", "dwarf", before, after)


@pytest.mark.parametrize(
    ("loss", "judgement"),
    [
        (99, ""),
        (100, INACCURACY),
        (199, INACCURACY),
        (200, MISTAKE),
        (399, MISTAKE),
        (400, BLUNDER),
    ],
)
def test_an_analysed_row_is_judged_by_what_the_move_cost(loss, judgement):
    row = _judged(loss)
    assert row.loss == loss / 100 and row.judgement == judgement
    assert row.best == ("d A1-A2" if loss else "")
    assert row.mistake == (judgement in (MISTAKE, BLUNDER))


def test_a_row_stored_before_the_three_classes_keeps_its_flag():
    old = {
        "ply": 2,
        "side": "troll",
        "move": "T G7-F6",
        "evaluation": 4.0,
        "best": "T G7-G4 xF5",
        "reply": "d F5-F6 xF6",
        "loss": 4.5,
        "mistake": True,
    }
    assert analysis.PlyRow.from_dict(old).judgement == MISTAKE
    assert analysis.PlyRow.from_dict(old | {"mistake": False}).judgement == ""
    row = _judged(250)
    assert analysis.PlyRow.from_dict(row.as_dict()) == row


def test_each_sides_worst_three_come_first_costliest_first():
    def row(ply, side, loss, judgement):
        return analysis.PlyRow(ply, side, f"m{ply}", 0.0, "b", "", loss, judgement)

    rows = [
        row(1, "dwarf", 1.2, INACCURACY),
        row(2, "troll", 4.5, BLUNDER),
        row(3, "dwarf", 2.5, MISTAKE),
        row(4, "troll", 0.5, ""),
        row(5, "dwarf", 5.0, BLUNDER),
        row(7, "dwarf", 2.5, MISTAKE),
        row(9, "dwarf", 9.0, BLUNDER),
    ]
    assert [r.ply for r in worst_moves(rows, "dwarf")] == [9, 5, 3]  # 3 before 7: earlier
    assert [r.ply for r in worst_moves(rows, "troll")] == [2]  # an unjudged move is no worst
    assert worst_moves(rows, "nobody") == []


def test_the_graphs_points_are_links_to_their_plies_with_names():
    points = [
        EvalPoint(1, 0.5, "Move 1. d F1-F5: +0.5", href="?ply=1#replay"),
        EvalPoint(2, -4.0, "Move 1... T G7-F6: −4, blunder", BLUNDER, href="?ply=2#replay"),
        EvalPoint(3, -3.0, "Move 2. d x: −3", MISTAKE, href="?ply=3#replay"),
    ]
    svg = eval_chart(
        points, last_ply=3, current_ply=2, above="a", below="b", title="t", labelled_by="c"
    )
    links = re.findall(r'<a class="eval-point" href="([^"]*)" aria-label="([^"]*)"', svg)
    assert links == [(p.href, p.label) for p in points]
    assert svg.count('aria-current="step"') == 1 and 'href="?ply=2#replay" aria-label' in svg
    assert svg.count("eval-blunder") == 1 and svg.count("eval-mistake") == 1
    assert 'width="100%"' in svg and 'role="group"' in svg
    # Without an href a point is no link (nothing to focus that goes nowhere).
    bare = eval_chart(
        [EvalPoint(1, 0.5, "x")],
        last_ply=1,
        current_ply=0,
        above="a",
        below="b",
        title="t",
        labelled_by="c",
    )
    assert "<a " not in bare and "<title>x</title>" in bare


def test_the_best_move_suggested_is_the_best_of_the_position_before_each_move():
    """Against "best: T F11-E12" eight times: each suggestion is a legal move of the
    position the move was played in, and the search's best there."""
    game = registry.get("thud")
    rng_moves = []
    state = game.initial_state()
    for ply in range(8):  # a short game of first legal moves of a few kinds
        legal = game.legal_moves(state)
        move = legal[(ply * 37) % len(legal)]
        state, info = game.apply(state, move)
        rng_moves.append(info.notation)
    states = analysis.positions(game, game.initial_state(), rng_moves)
    rows = analysis.analyse_battle(game, states, rng_moves, budget_ms=BUDGET_MS, clock=Tick())
    suggested = [row for row in rows if row.best]
    assert suggested  # these moves are far from the search's choice
    for row in suggested:
        before = states[row.ply - 1]
        assert row.best in game.legal_moves(before)
        assert row.best == game.analyse(before, budget_ms=BUDGET_MS, clock=Tick()).best[0]


def test_the_presenters_doctests(db):
    from games.web import presenters_analysis

    failures, attempted = doctest.testmod(presenters_analysis)
    assert attempted and not failures
