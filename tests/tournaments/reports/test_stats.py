"""Statistics by side: the pure functions, then the database adapter on a hand-computed event."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from tests.tournaments.event import build_event
from tournaments.reports import loaders
from tournaments.reports.stats import (
    SideStats,
    battle_winner,
    percentage,
    player_side_stats,
    side_stats,
)
from tournaments.rules.result import MatchResult

# The stable keys of a Thud statistics object (DESIGN.md §8, the JSON API).
THUD_JSON_KEYS = (
    "battles",
    "dwarfs_won",
    "trolls_won",
    "drawn",
    "dwarfs_won_pct",
    "trolls_won_pct",
    "drawn_pct",
    "avg_dwarf_points",
    "avg_troll_points",
)

# ------------------------------------------------------------------ pure


def test_battle_is_won_by_the_side_with_more_points_trolls_counting_four():
    assert battle_winner(13, 12) == "first"  # 13 dwarfs beat 3 trolls
    assert battle_winner(12, 16) == "second"  # 4 trolls beat 12 dwarfs
    assert battle_winner(12, 12) == "drawn"


def test_percentages_round_half_up_to_two_decimals():
    assert percentage(1, 3) == Decimal("33.33")
    assert percentage(2, 3) == Decimal("66.67")
    assert percentage(1, 8) == Decimal("12.50")
    assert percentage(1, 800) == Decimal("0.13")  # 0.125 rounds up, not to even
    assert percentage(0, 0) == Decimal("0.00")


def test_side_stats_counts_both_battles_of_each_result():
    stats = side_stats(
        [
            MatchResult(20, 3, 10, 4, game="thud"),
            MatchResult(8, 2, 12, 3, game="thud"),
            MatchResult(5, 6, 30, 1, game="thud"),
        ],
        game="thud",
    )
    assert (stats.battles, stats.first_won, stats.second_won, stats.drawn) == (6, 2, 2, 2)
    assert stats.lost is None
    assert stats.first_won_pct == stats.second_won_pct == stats.drawn_pct == Decimal("33.33")
    assert stats.avg_first_points == Decimal("14.17")  # 85 / 6
    assert stats.avg_second_points == Decimal("12.67")  # 76 / 6


def test_no_battles_give_zero_percentages_and_averages():
    stats = side_stats([], game="thud")
    assert stats == SideStats(battles=0, game="thud")
    assert stats.first_won_pct == stats.avg_second_points == Decimal("0.00")


def test_player_side_stats_follow_the_side_the_player_had():
    # As A: dwarfs in battle 1 (20-12 won), trolls in battle 2 (16-10 won).
    # As B: trolls in battle 1 (8-8 drawn), dwarfs in battle 2 (3 dwarfs vs 4 trolls: lost).
    stats = player_side_stats(
        [
            (MatchResult(20, 3, 10, 4, game="thud"), "a"),
            (MatchResult(8, 2, 3, 1, game="thud"), "b"),
        ],
        game="thud",
    )
    assert (stats.battles, stats.first_won, stats.second_won) == (4, 1, 1)
    assert (stats.lost, stats.drawn) == (1, 1)
    assert (stats.first_battles, stats.second_battles) == (2, 2)
    assert stats.lost_pct == Decimal("25.00")
    assert stats.avg_first_points == Decimal("11.50")  # (20 + 3) / 2
    assert stats.avg_second_points == Decimal("12.00")  # (16 + 8) / 2


def test_player_letter_must_be_a_or_b():
    with pytest.raises(ValueError, match="'c'"):
        player_side_stats([(MatchResult(1, 1, 1, 1, game="thud"), "c")], game="thud")


def test_json_has_the_stable_keys_and_numbers():
    data = side_stats([MatchResult(20, 3, 10, 4, game="thud")], game="thud").as_json()
    assert set(THUD_JSON_KEYS) <= set(data)
    assert data["dwarfs_won_pct"] == 50.0 and data["drawn_pct"] == 0.0
    assert "lost" not in data
    player = player_side_stats([], game="thud").as_json()
    assert player["lost"] == 0 and player["dwarf_battles"] == player["troll_battles"] == 0


def test_json_keys_name_the_games_sides():
    data = side_stats([MatchResult(3000, 1200, 2500, 2600, game="cavalli")], game="cavalli")
    keys = set(data.as_json())
    assert {"white_won", "black_won", "white_won_pct", "avg_black_points"} <= keys
    assert not {key for key in keys if re.search("dwarf|troll", key)}
    player = player_side_stats([], game="cavalli").as_json()
    assert player["white_battles"] == player["black_battles"] == 0


# ------------------------------------------------------------------ database


@pytest.mark.django_db
def test_tournament_statistics_count_confirmed_battles_only():
    event = build_event()
    stats = loaders.tournament_stats(event.t)
    assert (stats.battles, stats.first_won, stats.second_won, stats.drawn) == (6, 2, 2, 2)
    assert stats.first_won_pct == Decimal("33.33")
    assert (stats.avg_first_points, stats.avg_second_points) == (Decimal("14.17"), Decimal("12.67"))


@pytest.mark.django_db
def test_site_statistics_span_every_tournament():
    build_event()
    stats = loaders.site_stats(game="thud")
    assert (stats.battles, stats.first_won, stats.second_won, stats.drawn) == (8, 3, 3, 2)
    assert (stats.first_won_pct, stats.drawn_pct) == (Decimal("37.50"), Decimal("25.00"))


@pytest.mark.django_db
def test_player_statistics_span_tournaments_from_the_players_side():
    event = build_event()
    ann = loaders.player_stats(event.ann.player, game="thud")
    assert (ann.battles, ann.first_won, ann.second_won, ann.lost, ann.drawn) == (6, 3, 3, 0, 0)
    assert (ann.avg_first_points, ann.avg_second_points) == (Decimal("27.33"), Decimal("24.00"))
    bo = loaders.player_stats(event.bo.player, game="thud")
    assert (bo.battles, bo.first_won, bo.second_won, bo.lost, bo.drawn) == (4, 0, 0, 2, 2)
    assert (bo.lost_pct, bo.avg_first_points) == (Decimal("50.00"), Decimal("9.00"))


@pytest.mark.django_db
def test_a_draft_round_does_not_count():
    event = build_event()
    event.m1.round.status = "draft"
    event.m1.round.save()
    assert loaders.tournament_stats(event.t).battles == 4


# ------------------------------------------------------------ other games


def test_cavalli_battles_are_won_on_points_as_recorded_white_first():
    results = [MatchResult(3000, 1200, 2500, 2600, game="cavalli")]
    s = side_stats(results, game="cavalli")
    # Game 1: white 3000 beats black 1200; game 2: black 2600 beats white 2500. Thud's
    # weights (four per troll) would make black win game 1 (4800 > 3000).
    assert (s.battles, s.first_won, s.second_won, s.drawn) == (2, 1, 1, 0)
    assert (s.avg_first_points, s.avg_second_points) == (Decimal("2750.00"), Decimal("1900.00"))
    assert s.game == "cavalli" and s.words["first_won"] == "White won"
    player = player_side_stats([(results[0], "b")], game="cavalli")
    # B has black in game 1 (lost) and white in game 2 (lost).
    assert (player.first_won, player.second_won, player.lost) == (0, 0, 2)
    assert player.words["won_as_first"] == "Won as white"


def test_statistics_never_mix_games():
    with pytest.raises(ValueError, match="cavalli result among the statistics of thud"):
        side_stats(
            [MatchResult(10, 1, 10, 1, game="thud"), MatchResult(100, 0, 0, 0, game="cavalli")],
            game="thud",
        )
    with pytest.raises(ValueError, match="thud result among the statistics of cavalli"):
        player_side_stats([(MatchResult(10, 1, 10, 1, game="thud"), "a")], game="cavalli")


def test_statistics_without_results_still_name_their_games_sides():
    assert side_stats([], game="cavalli").words["second_won"] == "Black won"
    assert side_stats([], game="thud").words["second_won"] == "Trolls won"
