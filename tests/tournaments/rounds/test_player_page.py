"""The player's page's next step: a pure rule over plain facts."""

from __future__ import annotations

import doctest

import pytest

from tournaments.rounds import player_page
from tournaments.rounds.player_page import (
    NOT_PAIRED,
    OVER,
    PLAY,
    WAIT,
    NextStep,
    next_step,
    round_to_come,
)


def facts(**kw):
    return {
        "finished": False,
        "rounds_planned": 5,
        "current_round": 2,
        "has_match": True,
        "match_finished": False,
        "place": 0,
    } | kw


@pytest.mark.parametrize(
    ("kw", "expected"),
    [
        ({}, NextStep(PLAY)),
        ({"match_finished": True}, NextStep(WAIT, round=3)),
        ({"current_round": 0, "has_match": False}, NextStep(WAIT, round=1)),
        ({"has_match": False}, NextStep(NOT_PAIRED, round=3)),
        ({"current_round": 5, "match_finished": True}, NextStep(WAIT, round=0)),
        ({"finished": True, "place": 4}, NextStep(OVER, place=4)),
        # Not paired in the last round: no round to wait for.
        ({"current_round": 5, "has_match": False}, NextStep(NOT_PAIRED, round=0)),
        # A knockout stage may follow the planned rounds.
        ({"current_round": 5, "match_finished": True, "knockout": True}, NextStep(WAIT, round=6)),
    ],
)
def test_next_step_says_what_the_player_waits_for(kw, expected):
    assert next_step(**facts(**kw)) == expected


@pytest.mark.parametrize(
    ("finished", "knockout", "current", "expected"),
    [
        (False, False, 0, True),  # before round 1
        (False, False, 4, True),
        (False, False, 5, False),  # the last planned round
        (False, True, 5, True),  # a knockout stage may follow
        (True, False, 2, False),  # closed early
        (True, True, 5, False),
    ],
)
def test_a_round_can_come_until_the_last_planned_one_or_the_close(
    finished, knockout, current, expected
):
    facts = {"finished": finished, "knockout": knockout, "rounds_planned": 5}
    assert round_to_come(**facts, current_round=current) is expected


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(player_page).failed == 0
