"""The levels both engines' bots share (games/rules/bot_levels.py): the checks and the pick."""

from __future__ import annotations

import doctest

import pytest

from games.rules import bot_levels
from games.rules.bot_levels import Level, depth_cap, level_of, pick

WEAK = Level(budget_share=0.5, max_depth=1, top=3, margin=10, blunder_rate=0.0)
STRONG = Level(budget_share=1.0, max_depth=8, top=1, margin=0, blunder_rate=0.0)
SCORES = [("a", 50), ("b", 45), ("c", 40), ("d", 39)]


def test_docstring_examples():
    failures, attempted = doctest.testmod(bot_levels)
    assert attempted and not failures


def test_unknown_level_and_plies_left_below_one_are_refused():
    with pytest.raises(ValueError, match="level must be 1 to 5, not 6"):
        level_of({1: STRONG}, 6, None)
    with pytest.raises(ValueError, match="plies_left must be at least 1"):
        level_of({1: STRONG}, 1, 0)
    assert level_of({1: STRONG}, 1, 1) is STRONG


def test_depth_cap_only_lowers_the_levels_cap():
    assert depth_cap(STRONG, None) == 8
    assert depth_cap(STRONG, 3) == 3
    assert depth_cap(STRONG, 20) == 8


def test_a_strong_level_plays_the_best_move_and_a_weak_one_a_near_one_by_seed():
    assert pick(STRONG, 7, "a", SCORES) == "a"
    picks = {pick(WEAK, seed, "a", SCORES) for seed in range(200)}
    assert picks == {"a", "b", "c"}  # within the margin (40 is in) and the top 3, never "d"
    assert pick(WEAK, 5, "a", SCORES) == pick(WEAK, 5, "a", SCORES)


def test_a_blunder_is_any_scored_move():
    always = Level(budget_share=0.5, max_depth=1, top=2, margin=0, blunder_rate=1.0)
    assert {pick(always, seed, "a", SCORES) for seed in range(200)} == {"a", "b", "c", "d"}
