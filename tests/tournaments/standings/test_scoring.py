from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.thud import MAX_DWARFS, MAX_TROLLS
from tournaments.rules.result import MatchResult, MatchResultError
from tournaments.standings.scoring import MatchScore, PointsScheme, score


def test_dwarf_player_scores_survivors_and_troll_player_four_per_troll():
    # Battle 1: A (dwarfs) keeps 5 dwarfs -> 5; B (trolls) keeps 2 trolls -> 8.
    # Battle 2: B (dwarfs) keeps 0; A (trolls) keeps 0 -> 0 v 0.
    s = score(MatchResult(5, 2, 0, 0, game="thud"))
    assert s == MatchScore(
        a_points=(5, 0),
        b_points=(8, 0),
        differential=-3,
        battles_won_a=0,
        battles_won_b=1,
        outcome="b",
    )


def test_differential_sums_both_battles():
    # A: 20 + 4*3 = 32; B: 4*1 + 10 = 14; differential +18, A wins both battles.
    s = score(MatchResult(20, 1, 10, 3, game="thud"))
    assert s.a_points == (20, 12)
    assert s.b_points == (4, 10)
    assert s.differential == 18
    assert (s.battles_won_a, s.battles_won_b) == (2, 0)
    assert s.outcome == "a"


def test_equal_totals_are_a_draw_even_when_battles_split():
    # A: 6 + 8 = 14; B: 8 + 6 = 14. Each player wins one battle.
    s = score(MatchResult(6, 2, 6, 2, game="thud"))
    assert s.differential == 0
    assert s.outcome == "draw"
    assert (s.battles_won_a, s.battles_won_b) == (1, 1)


def test_equal_battle_is_won_by_nobody():
    s = score(MatchResult(8, 2, 0, 0, game="thud"))
    assert (s.battles_won_a, s.battles_won_b) == (0, 0)
    assert s.outcome == "draw"


def test_maximum_values_are_accepted():
    s = score(MatchResult(MAX_DWARFS, MAX_TROLLS, MAX_DWARFS, MAX_TROLLS, game="thud"))
    assert s.a_points == (32, 32)
    assert s.b_points == (32, 32)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((33, 0, 0, 0), "battle1_first"),
        ((-1, 0, 0, 0), "battle1_first"),
        ((0, 9, 0, 0), "battle1_second"),
        ((0, 0, 40, 0), "battle2_first"),
        ((0, 0, 0, -2), "battle2_second"),
        ((0, 0, 0, 1.5), "battle2_second"),
        ((True, 0, 0, 0), "battle1_first"),
    ],
)
def test_out_of_range_survivors_raise_naming_the_field(args, field):
    with pytest.raises(MatchResultError) as raised:
        score(MatchResult(*args, game="thud"))
    assert raised.value.field == field


def test_default_points_scheme_is_two_one_zero():
    assert PointsScheme() == PointsScheme(win=2, draw=1, loss=0)


@given(
    st.integers(0, MAX_DWARFS),
    st.integers(0, MAX_TROLLS),
    st.integers(0, MAX_DWARFS),
    st.integers(0, MAX_TROLLS),
)
def test_score_is_antisymmetric_when_players_swap(d1, t1, d2, t2):
    # Swapping A and B swaps the battles: B's battle 1 is A's battle 2.
    s = score(MatchResult(d1, t1, d2, t2, game="thud"))
    r = score(MatchResult(d2, t2, d1, t1, game="thud"))
    assert r.differential == -s.differential
    assert r.a_points == s.b_points[::-1]
    assert (r.battles_won_a, r.battles_won_b) == (s.battles_won_b, s.battles_won_a)
    assert s.differential == sum(s.a_points) - sum(s.b_points)
