"""Tiny's whole game tree counted by the package and by an independent brute force."""

from __future__ import annotations

import pytest

from tests.games.tiny.core.perft import endings, perft
from tests.games.tiny.core.position import Position
from tests.games.tiny.game import TinyGame
from tests.games.tiny_tests import brute

#: Known by hand: 3 openings; after A1-A2 or C1-C2 three replies, after B1-B2 four.
OPENING = [1, 3, 10]


def test_the_first_plies_counted_by_hand():
    assert [perft(Position.initial(), d) for d in range(3)] == OPENING


@pytest.mark.parametrize("depth", range(14))
def test_perft_matches_the_brute_force_at_every_depth(depth):
    assert perft(Position.initial(), depth) == brute.perft(brute.START, depth)


def test_the_tree_ends_by_the_twelfth_ply():
    assert perft(Position.initial(), 12) == 0
    assert brute.perft(brute.START, 12) == 0


def test_every_battle_there_is_ends_alike_in_both():
    mine, theirs = endings(Position.initial()), brute.endings(brute.START)
    assert mine == theirs
    assert sum(mine.values()) == 250
    # Both sides can win, and a battle can be drawn.
    assert {(g > s) - (g < s) for _plies, g, s in mine} == {-1, 0, 1}


def test_the_games_interface_walks_the_same_tree():
    game = TinyGame()

    def count(state, depth):
        if depth == 0:
            return 1
        return sum(count(game.apply(state, m)[0], depth - 1) for m in game.legal_moves(state))

    assert [count(game.initial_state(), d) for d in range(8)] == [
        brute.perft(brute.START, d) for d in range(8)
    ]


def test_the_legal_moves_of_every_reachable_position_match():
    game = TinyGame()
    for pos in brute.reachable():
        state = game.deserialise(brute.compact(pos))
        assert game.legal_moves(state) == [m for m, _new in brute.moves(pos)], pos
        for move, new in brute.moves(pos):
            assert game.serialise(game.apply(state, move)[0]) == brute.compact(new)
        outcome = game.outcome(state)
        if brute.moves(pos):
            assert outcome is None
        else:
            assert outcome is not None and outcome.reason == "no_legal_move"
            assert outcome.scores == {
                "gold": brute.points(pos[1], "g"),
                "silver": brute.points(pos[1], "s"),
            }
