"""The player's page's next step: a pure rule over plain facts."""

from __future__ import annotations

import pytest

from tournaments.rounds.player_page import NOT_PAIRED, OVER, PLAY, WAIT, NextStep, next_step


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
    ],
)
def test_next_step_says_what_the_player_waits_for(kw, expected):
    assert next_step(**facts(**kw)) == expected
