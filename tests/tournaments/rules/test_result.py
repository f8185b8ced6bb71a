"""The MatchResult value type: limits, parsing, and each player's point of view."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games.engines import registry
from games.thud import MAX_DWARFS, MAX_TROLLS, TROLL_POINTS
from tournaments.models.wording import game_choices, words
from tournaments.rules.result import MatchResult, MatchResultError
from tournaments.rules.scales import WORDING_KEYS, check_scale, scale_of
from tournaments.standings.scoring import score

survivors = st.builds(
    MatchResult,
    st.integers(0, MAX_DWARFS),
    st.integers(0, MAX_TROLLS),
    st.integers(0, MAX_DWARFS),
    st.integers(0, MAX_TROLLS),
    game=st.just("thud"),
)


def test_limits_are_thirty_two_dwarfs_eight_trolls_four_points_a_troll():
    assert (MAX_DWARFS, MAX_TROLLS, TROLL_POINTS) == (32, 8, 4)


def test_battle_one_is_a_dwarfs_and_battle_two_a_trolls():
    s = MatchResult(20, 3, 11, 6, game="thud")
    assert s.battle(1) == (20, 3) and s.battle(2) == (11, 6)
    assert s.points_of("a") == (20, 24)  # A: dwarfs in battle 1, trolls in battle 2
    assert s.points_of("b") == (12, 11)


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ((33, 0, 0, 0), "battle1_first"),
        ((0, 9, 0, 0), "battle1_second"),
        ((0, 0, -1, 0), "battle2_first"),
        ((0, 0, 0, "x"), "battle2_second"),
        ((0, 0, 0, "1_0"), "battle2_second"),
        ((0, 0, "10" * 20, 0), "battle2_first"),
        ((True, 0, 0, 0), "battle1_first"),
    ],
)
def test_bad_values_name_their_field(values, field):
    with pytest.raises(MatchResultError) as raised:
        MatchResult.parse(values, game="thud")
    assert raised.value.field == field


def test_parse_wants_exactly_four_values():
    with pytest.raises(MatchResultError, match="Four"):
        MatchResult.parse([1, 2, 3], game="thud")


def test_parse_accepts_form_strings_and_survivors():
    s = MatchResult.parse([" 32", "8", 0, "0"], game="thud")
    assert s.as_tuple() == (32, 8, 0, 0) and MatchResult.parse(s, game="thud") is s


@given(survivors)
def test_swapping_the_battles_swaps_the_points_of_view(s):
    swapped = MatchResult(
        s.battle2_first, s.battle2_second, s.battle1_first, s.battle1_second, game="thud"
    )
    assert swapped.points_of("a") == s.points_of("b")[::-1]
    assert score(swapped).differential == -score(s).differential


@given(survivors)
def test_points_sum_to_the_pieces_left(s):
    a, b = s.points_of("a"), s.points_of("b")
    total = s.battle1_first + s.battle2_first + TROLL_POINTS * (s.battle1_second + s.battle2_second)
    assert sum(a) + sum(b) == total


# --- other games' scales (Battaglia di Cavalli, registered by the games app) -------------


def test_cavalli_numbers_are_points_as_they_are_up_to_the_sum_of_00_to_99():
    s = MatchResult(4950, 0, 1200, 3000, game="cavalli")
    assert s.points_of("a") == (4950, 3000)  # white in game 1, black in game 2
    assert s.points_of("b") == (0, 1200)
    assert score(s).differential == (4950 + 3000) - (0 + 1200)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([4951, 0, 0, 0], "Game 1 white points must be between 0 and 4950, not 4951."),
        ([0, 0, 0, -1], "Game 2 black points must be between 0 and 4950, not -1."),
        (["0", "-3", "0", "0"], "Game 1 black points must be a whole number, not '-3'."),
        (["0", "0", "12345", "0"], "Game 2 white points must be a whole number, not '12345'."),
    ],
)
def test_cavalli_numbers_out_of_range_are_refused_naming_the_game_and_colour(values, message):
    with pytest.raises(MatchResultError) as caught:
        MatchResult.parse(values, game="cavalli")
    assert str(caught.value) == message


def test_a_thud_result_is_not_a_cavalli_result():
    # Thud's limits still apply by default, whatever other games allow.
    with pytest.raises(
        MatchResultError, match="Battle 1 surviving dwarfs must be between 0 and 32"
    ):
        MatchResult.parse([100, 100, 0, 0], game="thud")
    assert MatchResult.parse([100, 100, 0, 0], game="cavalli").as_tuple() == (100, 100, 0, 0)
    with pytest.raises(MatchResultError, match="another game"):
        MatchResult.parse(MatchResult(1, 1, 1, 1, game="thud"), game="cavalli")


def test_every_game_of_the_registry_has_a_result_scale():
    assert [key for key, _name in game_choices()] == [g.key for g in registry.all_games()]


# --- the texts that name each game's sides on tournament pages --------------------------


def test_every_registered_game_names_its_sides_with_every_wording_key():
    for key, _name in game_choices():
        assert set(scale_of(key).wording) == set(WORDING_KEYS), key


def test_the_slip_headings_give_each_games_own_limits():
    for key, _name in game_choices():
        scale = scale_of(key)
        assert f"(0–{scale.limits[0]})" in scale.wording["first_numbers"], key
        assert f"(0–{scale.limits[1]})" in scale.wording["second_numbers"], key


def test_cavalli_wording_speaks_of_white_and_black_and_thuds_is_unchanged():
    cavalli, thud = words(scale_of("cavalli")), words(scale_of("thud"))
    assert cavalli["pairing_note"] == "Player A has white in game 1 and black in game 2."
    assert cavalli["first_numbers"] == "White points (0–4950)"
    assert not any(re.search(r"dwarf|troll|surviv", text, re.I) for text in cavalli.values())
    assert thud["pairing_note"] == "Player A has the dwarfs in battle 1 and the trolls in battle 2."
    assert thud["first_numbers"] == "Surviving dwarfs (0–32)"


def test_wording_is_translated_when_asked_for():
    with translation.override("it"):
        words_ = words(scale_of("cavalli"))
    assert (
        words_["pairing_note"]
        == "Il giocatore A ha il bianco nella battaglia 1 e il nero nella battaglia 2."
    )


def test_a_game_without_its_wording_is_refused():
    scale = scale_of("cavalli")
    partial = dataclasses.replace(scale, game="nowording", wording={"pairing_note": "x"})
    with pytest.raises(ValueError, match="wording of nowording lacks"):
        check_scale(partial)
