from __future__ import annotations

import random

import pytest

from tournaments.rules.result import MatchResult
from tournaments.standings.scoring import PointsScheme
from tournaments.standings.table import (
    EntrantRecord,
    MatchRecord,
    StandingRow,
    compute_standings,
)
from tournaments.standings.tiebreaks import KEYS as TIEBREAK_KEYS

# Result helpers: survivors (b1_dwarfs, b1_trolls, b2_dwarfs, b2_trolls) from A's side.
WIN_BY_4_ONE_BATTLE = (8, 1, 0, 0)  # A 8+0, B 4+0: +4, battles 1-0
WIN_BY_4_TWO_BATTLES = (7, 1, 3, 1)  # A 7+4, B 4+3: +4, battles 2-0
DRAW_NO_BATTLES = (0, 0, 0, 0)  # 0 v 0 twice


def m(rnd: int, a: int, b: int | None, survivors=(0, 0, 0, 0)) -> MatchRecord:
    return MatchRecord(rnd, a, b, None if b is None else MatchResult(*survivors, game="thud"))


def entrants(n: int, seeds: dict[int, int] | None = None) -> list[EntrantRecord]:
    seeds = seeds or {}
    return [EntrantRecord(i, f"P{i}", seeds.get(i, i)) for i in range(1, n + 1)]


def by_id(rows: list[StandingRow]) -> dict[int, StandingRow]:
    return {r.entry_id: r for r in rows}


# Five players, two rounds, computed by hand:
# R1: 1 v 2 survivors (10, 2, 5, 3): 1 scores 10 + 12 = 22, 2 scores 8 + 5 = 13 -> 1 wins +9,
#     battles 1: 10>8, 12>5 -> 2-0.
#     3 v 4 survivors (6, 2, 6, 2): 14 v 14 -> draw, battles 1-1.   5 has the bye.
# R2: 5 v 1 survivors (20, 1, 4, 0): 5 scores 20 + 0, 1 scores 4 + 4 -> 5 wins +12, battles 1-1.
#     2 v 3 survivors (0, 8, 32, 0): 2 scores 0 + 0, 3 scores 32 + 32 -> 3 wins +64, battles 0-2.
#     4 has the bye.
# Match points (2/1/0, bye = win): 1: 2, 2: 0, 3: 3, 4: 3, 5: 4.
# Differential: 1: 9-12 = -3; 2: -9-64 = -73; 3: 0+64 = 64; 4: 0; 5: 12.
# Buchholz: 1: 0+4 = 4; 2: 2+3 = 5; 3: 3+0 = 3; 4: 3 (bye adds 0); 5: 2.
# Sonneborn-Berger: 1: 0*1 + 4*0 = 0; 2: 0; 3: 3*0.5 + 0*1 = 1.5; 4: 3*0.5 = 1.5; 5: 2*1 = 2.
# Battles won: 1: 2+1 = 3; 2: 0; 3: 1+2 = 3; 4: 1; 5: 1.
# Order: 5 (4 pts), 3 and 4 (3 pts, differential 64 > 0), 1 (2), 2 (0).
FIVE = [
    m(1, 1, 2, (10, 2, 5, 3)),
    m(1, 3, 4, (6, 2, 6, 2)),
    m(1, 5, None),
    m(2, 5, 1, (20, 1, 4, 0)),
    m(2, 2, 3, (0, 8, 32, 0)),
    m(2, 4, None),
]


def test_five_player_tournament_matches_the_hand_computation():
    rows = compute_standings(entrants(5), FIVE)
    assert [r.entry_id for r in rows] == [5, 3, 4, 1, 2]
    assert rows[0] == StandingRow(
        rank=1, entry_id=5, name="P5", seed=5, played=2, wins=1, draws=0, losses=0, byes=1,
        match_points=4, differential=12, buchholz=2, sonneborn_berger=2.0, battles_won=1,
        tied_with_previous=False, separated_by=None,
    )  # fmt: skip
    r = by_id(rows)
    assert [(r[i].match_points, r[i].differential) for i in (1, 2, 3, 4, 5)] == [
        (2, -3), (0, -73), (3, 64), (3, 0), (4, 12),
    ]  # fmt: skip
    assert [r[i].buchholz for i in (1, 2, 3, 4, 5)] == [4, 5, 3, 3, 2]
    assert [r[i].sonneborn_berger for i in (1, 2, 3, 4, 5)] == [0, 0, 1.5, 1.5, 2]
    assert [r[i].battles_won for i in (1, 2, 3, 4, 5)] == [3, 0, 3, 1, 1]
    assert [(r[i].wins, r[i].draws, r[i].losses, r[i].byes) for i in (1, 2, 3, 4, 5)] == [
        (1, 0, 1, 0), (0, 0, 2, 0), (1, 1, 0, 0), (0, 1, 0, 1), (1, 0, 0, 1),
    ]  # fmt: skip
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5]
    assert [row.separated_by for row in rows] == [
        None, "match_points", "differential", "match_points", "match_points",
    ]  # fmt: skip


def test_bye_counts_as_played_win_with_zero_differential():
    rows = by_id(compute_standings(entrants(1), [m(1, 1, None)]))
    assert rows[1].played == 1
    assert rows[1].byes == 1
    assert rows[1].wins == 0  # wins exclude byes: wins + draws + losses + byes == played
    assert rows[1].match_points == 2
    assert rows[1].differential == 0
    assert rows[1].buchholz == 0
    assert rows[1].battles_won == 0


def test_buchholz_separates_equal_points_and_differential():
    # R1: 1 beats 2 (+4), 3 beats 4 (+4).  R2: 1 beats 3 (+4), 4 beats 2 (+4).
    # Points: 1: 4, 2: 0, 3: 2, 4: 2. Differential 3: +4-4 = 0; 4: -4+4 = 0.
    # Buchholz 3: 4's 2 + 1's 4 = 6; 4: 3's 2 + 2's 0 = 2 -> 3 above 4.
    # Sonneborn-Berger 3: beat 4 -> 2; 4: beat 2 -> 0. Battles won 1 each.
    seeds = {3: 4, 4: 3}  # 4 has the better seed, so only the tiebreaks put 3 first
    matches = [
        m(1, 1, 2, WIN_BY_4_ONE_BATTLE),
        m(1, 3, 4, WIN_BY_4_ONE_BATTLE),
        m(2, 1, 3, WIN_BY_4_ONE_BATTLE),
        m(2, 4, 2, WIN_BY_4_ONE_BATTLE),
    ]
    rows = compute_standings(entrants(4, seeds), matches)
    assert [r.entry_id for r in rows] == [1, 3, 4, 2]
    assert (rows[1].buchholz, rows[2].buchholz) == (6, 2)
    assert rows[2].separated_by == "buchholz"

    # Without Buchholz, Sonneborn-Berger (2 v 0) decides.
    rows = compute_standings(
        entrants(4, seeds), matches, order=("match_points", "differential", "sonneborn_berger")
    )
    assert rows[2].entry_id == 4
    assert rows[2].separated_by == "sonneborn_berger"

    # Battles won are equal (1 v 1), so seed decides: 4 (seed 3) before 3 (seed 4).
    rows = compute_standings(
        entrants(4, seeds), matches, order=("match_points", "battles_won", "seed")
    )
    assert [r.entry_id for r in rows] == [1, 4, 3, 2]
    assert rows[2].separated_by == "seed"


def test_sonneborn_berger_separates_equal_buchholz():
    # X=1, Y=2, S=3 (strong), W=4 (weak), P=5, Q=6.
    # R1: X beats S, Y beats W, P v Q draw.  R2: W beats X, S beats Y, P v Q draw.
    # R3: S beats P, Q beats W, X v Y draw.
    # Points: X 3, Y 3, S 4, W 2, P 2, Q 4. Differential X: +4-4+0 = 0, Y the same.
    # Buchholz X: S 4 + W 2 + Y 3 = 9; Y: W 2 + S 4 + X 3 = 9.
    # Sonneborn-Berger X: 4 (beat S) + 0 + 3/2 = 5.5; Y: 2 (beat W) + 0 + 1.5 = 3.5.
    # Battles won: X 1, Y 1.
    matches = [
        m(1, 1, 3, WIN_BY_4_ONE_BATTLE),
        m(1, 2, 4, WIN_BY_4_ONE_BATTLE),
        m(1, 5, 6, DRAW_NO_BATTLES),
        m(2, 4, 1, WIN_BY_4_ONE_BATTLE),
        m(2, 3, 2, WIN_BY_4_ONE_BATTLE),
        m(2, 5, 6, DRAW_NO_BATTLES),
        m(3, 3, 5, WIN_BY_4_ONE_BATTLE),
        m(3, 6, 4, WIN_BY_4_ONE_BATTLE),
        m(3, 1, 2, DRAW_NO_BATTLES),
    ]
    rows = by_id(compute_standings(entrants(6, {1: 2, 2: 1}), matches))
    assert (rows[1].match_points, rows[2].match_points) == (3, 3)
    assert (rows[1].differential, rows[2].differential) == (0, 0)
    assert (rows[1].buchholz, rows[2].buchholz) == (9, 9)
    assert (rows[1].sonneborn_berger, rows[2].sonneborn_berger) == (5.5, 3.5)
    assert rows[1].rank < rows[2].rank
    assert rows[2].separated_by == "sonneborn_berger"


def test_battles_won_then_seed_then_shared_rank():
    # 1 beats 2 by +4 winning one battle; 3 beats 4 by +4 winning both battles.
    # 1 and 3: 2 points, +4, Buchholz 0, SB 0; battles 1 v 2 -> 3 first.
    # 2 and 4: 0 points, -4, Buchholz 2, SB 0, battles 0 -> seed: 2 before 4.
    matches = [m(1, 1, 2, WIN_BY_4_ONE_BATTLE), m(1, 3, 4, WIN_BY_4_TWO_BATTLES)]
    rows = compute_standings(entrants(4), matches)
    assert [r.entry_id for r in rows] == [3, 1, 2, 4]
    assert [r.separated_by for r in rows] == [None, "battles_won", "match_points", "seed"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]

    # Without seed in the order, 2 and 4 tie on everything: shared rank, listed by id.
    rows = compute_standings(entrants(4), matches, order=TIEBREAK_KEYS[:-1])
    assert [r.entry_id for r in rows] == [3, 1, 2, 4]
    assert [r.rank for r in rows] == [1, 2, 3, 3]
    assert rows[3].tied_with_previous is True
    assert rows[3].separated_by is None
    assert rows[2].tied_with_previous is False


def test_late_entry_initial_points_count_as_match_points_and_in_buchholz():
    people = [*entrants(2), EntrantRecord(3, "Late", 3, initial_points=1)]
    # Round 2: 3 (late, 1 point up front) beats 1.
    rows = by_id(
        compute_standings(
            people, [m(1, 1, 2, WIN_BY_4_ONE_BATTLE), m(2, 3, 1, WIN_BY_4_ONE_BATTLE)]
        )
    )
    assert rows[3].match_points == 3
    assert rows[3].played == 1
    assert rows[1].buchholz == 0 + 3  # opponents 2 (0 points) and 3 (1 + 2)
    assert rows[3].sonneborn_berger == 2  # beat 1, who has 2 points


def test_custom_points_scheme():
    # Three points for a win on the five-player tournament: 1: 3, 2: 0, 3: 1+3, 4: 1+3, 5: 3+3.
    rows = by_id(compute_standings(entrants(5), FIVE, points=PointsScheme(win=3, draw=1, loss=0)))
    assert [rows[i].match_points for i in (1, 2, 3, 4, 5)] == [3, 0, 4, 4, 6]
    assert rows[1].buchholz == 0 + 6
    assert rows[3].sonneborn_berger == 4 * 0.5 + 0


def test_custom_order_can_put_battles_won_first():
    rows = compute_standings(entrants(5), FIVE, order=("battles_won", "match_points", "seed"))
    # Battles won: 1 and 3 have 3 (3 has more points), then 4 and 5 with 1 (5 more points), 2.
    assert [r.entry_id for r in rows] == [3, 1, 5, 4, 2]
    assert [r.separated_by for r in rows] == [
        None,
        "match_points",
        "battles_won",
        "match_points",
        "battles_won",
    ]


def test_unknown_keys_and_entrants_are_rejected():
    with pytest.raises(ValueError, match="unknown tiebreak"):
        compute_standings(entrants(2), [], order=("match_points", "elo"))
    with pytest.raises(ValueError, match="unknown entrant 9"):
        compute_standings(entrants(2), [m(1, 1, 9)])
    with pytest.raises(ValueError, match="Battle 1 surviving trolls"):
        compute_standings(entrants(2), [m(1, 1, 2, (0, 9, 0, 0))])


def test_no_matches_orders_by_seed():
    rows = compute_standings(entrants(3, {1: 3, 2: 1, 3: 2}), [])
    assert [r.entry_id for r in rows] == [2, 3, 1]
    assert all(r.played == 0 for r in rows)


def test_thousand_players_nine_rounds_are_all_ranked():
    """Its speed is bench/standings.py's to measure, never a test's."""
    rng = random.Random(3)
    people = entrants(1000)
    matches = []
    for rnd in range(1, 10):
        ids = list(range(1, 1001))
        rng.shuffle(ids)
        for a, b in zip(ids[::2], ids[1::2], strict=True):
            matches.append(
                m(
                    rnd,
                    a,
                    b,
                    (rng.randint(0, 32), rng.randint(0, 8), rng.randint(0, 32), rng.randint(0, 8)),
                )
            )
    rows = compute_standings(people, matches)
    assert len(rows) == 1000
    assert sum(r.played for r in rows) == 9000


def test_a_match_record_has_a_result_and_a_bye_none():
    with pytest.raises(ValueError, match="round 3"):
        MatchRecord(3, 1, 2)  # a match without its result
    with pytest.raises(ValueError, match="round 3"):
        MatchRecord(3, 1, None, MatchResult(1, 1, 1, 1, game="thud"))  # a bye with one
    assert MatchRecord(3, 1, None).result is None
