"""The Survivors value type: limits, parsing, and each player's point of view."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.scoring import score
from tournaments.survivors import (
    MAX_DWARFS,
    MAX_TROLLS,
    TROLL_POINTS,
    Survivors,
    SurvivorsError,
)

survivors = st.builds(
    Survivors,
    st.integers(0, MAX_DWARFS),
    st.integers(0, MAX_TROLLS),
    st.integers(0, MAX_DWARFS),
    st.integers(0, MAX_TROLLS),
)


def test_limits_are_thirty_two_dwarfs_eight_trolls_four_points_a_troll():
    assert (MAX_DWARFS, MAX_TROLLS, TROLL_POINTS) == (32, 8, 4)


def test_battle_one_is_a_dwarfs_and_battle_two_a_trolls():
    s = Survivors(20, 3, 11, 6)
    assert s.battle(1) == (20, 3) and s.battle(2) == (11, 6)
    assert s.points_of("a") == (20, 24)  # A: dwarfs in battle 1, trolls in battle 2
    assert s.points_of("b") == (12, 11)


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ((33, 0, 0, 0), "battle1_dwarfs"),
        ((0, 9, 0, 0), "battle1_trolls"),
        ((0, 0, -1, 0), "battle2_dwarfs"),
        ((0, 0, 0, "x"), "battle2_trolls"),
        ((0, 0, 0, "1_0"), "battle2_trolls"),
        ((0, 0, "10" * 20, 0), "battle2_dwarfs"),
        ((True, 0, 0, 0), "battle1_dwarfs"),
    ],
)
def test_bad_values_name_their_field(values, field):
    with pytest.raises(SurvivorsError) as raised:
        Survivors.parse(values)
    assert raised.value.field == field


def test_parse_wants_exactly_four_values():
    with pytest.raises(SurvivorsError, match="Four"):
        Survivors.parse([1, 2, 3])


def test_parse_accepts_form_strings_and_survivors():
    s = Survivors.parse([" 32", "8", 0, "0"])
    assert s.as_tuple() == (32, 8, 0, 0) and Survivors.parse(s) is s


@given(survivors)
def test_swapping_the_battles_swaps_the_points_of_view(s):
    swapped = Survivors(s.battle2_dwarfs, s.battle2_trolls, s.battle1_dwarfs, s.battle1_trolls)
    assert swapped.points_of("a") == s.points_of("b")[::-1]
    assert score(swapped).differential == -score(s).differential


@given(survivors)
def test_points_sum_to_the_pieces_left(s):
    a, b = s.points_of("a"), s.points_of("b")
    total = (
        s.battle1_dwarfs + s.battle2_dwarfs + TROLL_POINTS * (s.battle1_trolls + s.battle2_trolls)
    )
    assert sum(a) + sum(b) == total
