"""Win statistics by side are pure functions over plain rows."""

from __future__ import annotations

from decimal import Decimal

from play.stats import PlayerStats, SideStats, by_side, for_player


def test_site_counts_first_side_wins_second_side_wins_and_draws_per_game():
    rows = [("thud", 0, 3), ("thud", 1, 1), ("thud", None, 1), ("cavalli", 1, 2)]
    stats = by_side(["thud", "cavalli"], rows)
    assert stats["thud"] == SideStats(first=3, second=1, draws=1)
    assert stats["cavalli"] == SideStats(first=0, second=2, draws=0)


def test_percentages_are_rounded_like_the_tournament_statistics_and_zero_without_games():
    s = SideStats(first=75125, second=49894, draws=351)
    assert (s.first_pct, s.second_pct, s.draws_pct) == (
        Decimal("59.92"),
        Decimal("39.80"),
        Decimal("0.28"),
    )
    assert SideStats().first_pct == SideStats().draws_pct == Decimal("0.00")


def test_a_game_without_results_is_listed_with_zeros_and_unknown_games_are_ignored():
    stats = by_side(["thud", "cavalli"], [("chess", 0, 5)])
    assert stats == {"thud": SideStats(), "cavalli": SideStats()}


def test_a_player_wins_as_the_side_they_played():
    rows = [
        ("cavalli", 0, 0, 2),  # played first, first won: 2 wins
        ("cavalli", 0, 1, 1),  # played first, second won: a loss
        ("cavalli", 1, 1, 4),  # played second, second won: 4 wins
        ("cavalli", 1, None, 1),  # a draw
    ]
    p = for_player(["cavalli", "thud"], rows)["cavalli"]
    assert (p.won, p.lost, p.draws, p.total) == (6, 1, 1, 8)
    assert p.as_first == SideStats(first=2, second=1) and p.as_second == SideStats(
        second=4, draws=1
    )


def test_a_player_with_no_games_has_empty_statistics():
    assert for_player(["thud"], []) == {"thud": PlayerStats()}
