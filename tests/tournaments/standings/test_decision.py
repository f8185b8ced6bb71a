"""The one rule for who won a battle and a match (``tournaments.standings.decision``):
pure, no database."""

from __future__ import annotations

import pytest

from tournaments.rules.result import MatchResult
from tournaments.standings.decision import (
    BY_TOTAL,
    LOST_ON_TIME,
    RESIGNED,
    Loss,
    battle_winner,
    decide,
)
from tournaments.standings.scoring import score


def test_a_battle_is_won_by_the_higher_score_without_a_loss():
    assert battle_winner((30, 32)) == 1
    assert battle_winner((33, 32)) == 0
    assert battle_winner((32, 32)) is None


@pytest.mark.parametrize("how", [LOST_ON_TIME, RESIGNED])
def test_a_battle_lost_on_time_or_resigned_is_the_other_sides_whatever_the_score(how):
    # The battle: Dwarfs 30 – Trolls 32, the trolls lost on time.
    assert battle_winner((30, 32), Loss(1, how)) == 0
    assert battle_winner((32, 32), Loss(0, how)) == 1
    assert battle_winner((1, 32), Loss(1, how)) == 0


def test_a_match_without_a_loss_is_decided_on_total_score_as_the_standings_score_it():
    result = MatchResult(30, 7, 31, 8, game="thud")  # A: 30 + 32 = 62; B: 28 + 31 = 59
    d = decide(result)
    assert (d.outcome, d.differential, d.by, d.battle, d.totals) == (
        "a",
        3,
        BY_TOTAL,
        None,
        (62, 59),
    )
    assert d.differential == score(result).differential


@pytest.mark.parametrize("how", [LOST_ON_TIME, RESIGNED])
def test_the_player_who_lost_a_battle_on_time_loses_the_match_though_ahead_on_total(how):
    # The issue: A has the trolls in battle 2 and loses it on time (seat 1), 62 to 59 up.
    d = decide(MatchResult(30, 7, 31, 8, game="thud"), (None, Loss(1, how)))
    assert (d.outcome, d.differential, d.by, d.battle, d.loser) == ("b", -1, how, 2, "a")
    assert d.totals == (62, 59)  # said, not hidden


def test_a_loss_by_the_player_already_behind_keeps_the_summed_differential():
    # B (the trolls in battle 1, seat 1) loses battle 1 on time and is 20 behind anyway.
    # A: 30 + 32 = 62, B: 12 + 30 = 42.
    d = decide(MatchResult(30, 3, 30, 8, game="thud"), (Loss(1, LOST_ON_TIME), None))
    assert (d.outcome, d.differential, d.by, d.battle, d.totals) == (
        "a",
        20,
        LOST_ON_TIME,
        1,
        (62, 42),
    )


def test_a_drawn_total_with_one_loss_is_the_other_players_win_by_one():
    d = decide(MatchResult(32, 8, 32, 8, game="thud"), (Loss(0, RESIGNED), None))
    assert (d.outcome, d.differential, d.battle) == ("b", -1, 1)


def test_one_loss_each_leaves_the_total_score_to_decide():
    # A loses battle 1 on time (seat 0), B resigns battle 2 (seat 0 in battle 2 is B).
    result = MatchResult(30, 7, 31, 8, game="thud")
    d = decide(result, (Loss(0, LOST_ON_TIME), Loss(0, RESIGNED)))
    assert (d.outcome, d.differential, d.by) == ("a", 3, BY_TOTAL)


def test_a_player_who_lost_both_battles_so_loses_and_the_first_battle_is_named():
    d = decide(MatchResult(32, 1, 32, 1, game="thud"), (Loss(0, LOST_ON_TIME), Loss(1, RESIGNED)))
    assert (d.outcome, d.differential, d.by, d.battle) == ("b", -1, LOST_ON_TIME, 1)
