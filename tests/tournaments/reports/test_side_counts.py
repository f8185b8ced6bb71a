"""The one count of results by winning side, with percentages (pure, no database)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from play import stats as play_stats
from tournaments.reports import stats as tournament_stats
from tournaments.reports.side_counts import SideCounts, count_by_side, percentage
from tournaments.rules.result import MatchResult


def test_results_add_up_by_the_side_that_won():
    c = count_by_side([(0, 3), (1, 1), (None, 2), (0, 1), (1, 0)])
    assert (c.first, c.second, c.draws, c.total) == (4, 1, 2, 7)


def test_no_games_count_zero_and_every_percentage_is_zero():
    c = count_by_side([])
    assert c == SideCounts() and c.total == 0
    assert (c.first_pct, c.second_pct, c.draws_pct) == (Decimal("0.00"),) * 3
    assert str(c.first_pct) == "0.00"


@pytest.mark.parametrize(
    ("part", "whole", "shown"),
    [
        (1, 3, "33.33"),  # down
        (2, 3, "66.67"),  # up
        (1, 8, "12.50"),  # exact, two decimals kept
        (1, 800, "0.13"),  # 0.125: half up, not to even
        (3, 800, "0.38"),  # 0.375: half up
        (5, 800, "0.63"),  # 0.625: half up (to even would give 0.62)
        (1, 1600, "0.06"),  # 0.0625 is below the half: down
        (7, 7, "100.00"),
        (0, 5, "0.00"),
    ],
)
def test_percentages_round_half_up_to_two_decimals(part, whole, shown):
    assert str(percentage(part, whole)) == shown
    c = count_by_side([(0, part), (None, whole - part)])
    assert str(c.first_pct) == shown


def test_rounded_percentages_need_not_add_up_to_one_hundred():
    c = count_by_side([(0, 1), (1, 1), (None, 1)])
    assert (c.first_pct, c.second_pct, c.draws_pct) == (Decimal("33.33"),) * 3


def test_a_winner_that_is_no_side_is_refused():
    with pytest.raises(ValueError, match="winner is 0, 1 or None"):
        count_by_side([(2, 1)])


def test_the_tournament_and_the_casual_statistics_count_alike():
    # Battle 1: dwarfs 20 v 3x4; battle 2: dwarfs 8 v 2x4 -- a dwarf win each, and a draw.
    results = [MatchResult(20, 3, 8, 2, game="thud"), MatchResult(4, 1, 10, 5, game="thud")]
    tournament = tournament_stats.side_stats(results, game="thud")
    casual = play_stats.by_side(["thud"], [("thud", 0, 1), ("thud", 1, 1), ("thud", None, 2)])
    assert (tournament.first_won, tournament.second_won, tournament.drawn) == (
        casual["thud"].first,
        casual["thud"].second,
        casual["thud"].draws,
    )
    assert tournament.first_won_pct == casual["thud"].first_pct == Decimal("25.00")
    assert tournament.drawn_pct == casual["thud"].draws_pct == Decimal("50.00")
