"""The crosstable and rank-by-round: pure functions, then the hand-computed event."""

from __future__ import annotations

import pytest

from tests.tournaments.event import build_event
from tournaments.reports import loaders
from tournaments.reports.crosstable import BYE, Cell, CrossMatch, crosstable, ranks_by_round
from tournaments.rules.result import MatchResult
from tournaments.standings.table import EntrantRecord, MatchRecord, compute_standings

ENTRANTS = [EntrantRecord(1, "Ann", 1), EntrantRecord(2, "Bo", 2), EntrantRecord(3, "Cy", 3)]


def test_cells_show_opponent_rank_side_result_and_differential():
    finished = [
        MatchRecord(1, 1, 2, MatchResult(20, 3, 10, 4, game="thud")),
        MatchRecord(1, 3, None),
    ]
    standings = compute_standings(ENTRANTS, finished)
    matches = [
        CrossMatch(1, 1, 2, MatchResult(20, 3, 10, 4, game="thud")),
        CrossMatch(1, 3, None),
        CrossMatch(2, 2, 1),  # paired, not confirmed
    ]
    rows = {row.name: row for row in crosstable(standings, matches, 2)}
    ann_rank = rows["Ann"].rank
    bo_rank = rows["Bo"].rank
    assert rows["Ann"].cells[0] == Cell(
        opponent_id=2, opponent_rank=bo_rank, side="first", result="W", differential=14
    )
    assert rows["Bo"].cells[0] == Cell(
        opponent_id=1, opponent_rank=ann_rank, side="second", result="L", differential=-14
    )
    assert rows["Cy"].cells[0] == BYE
    # Round 2: paired, awaiting a result; Cy has no match at all.
    assert rows["Bo"].cells[1] == Cell(opponent_id=1, opponent_rank=ann_rank, side="first")
    assert rows["Cy"].cells[1] is None


def test_a_drawn_match_is_d_with_zero_differential():
    standings = compute_standings(
        ENTRANTS[:2], [MatchRecord(1, 1, 2, MatchResult(8, 2, 12, 3, game="thud"))]
    )
    rows = crosstable(standings, [CrossMatch(1, 1, 2, MatchResult(8, 2, 12, 3, game="thud"))], 1)
    assert [(r.cells[0].result, r.cells[0].differential) for r in rows] == [("D", 0), ("D", 0)]


def test_rows_follow_the_standings_order():
    standings = compute_standings(
        ENTRANTS, [MatchRecord(1, 3, 1, MatchResult(30, 0, 0, 0, game="thud"))]
    )
    rows = crosstable(standings, [], 1)
    assert [r.name for r in rows] == [s.name for s in standings]
    assert rows[0].name == "Cy"


def test_ranks_by_round_recompute_the_standings_after_each_round():
    finished = [
        MatchRecord(1, 1, 2, MatchResult(20, 3, 10, 4, game="thud")),
        MatchRecord(1, 3, None),
        MatchRecord(2, 2, 3, MatchResult(8, 2, 12, 3, game="thud")),
        MatchRecord(2, 1, None),
        MatchRecord(3, 3, 1, MatchResult(5, 6, 30, 1, game="thud")),
        MatchRecord(3, 2, None),
    ]
    assert ranks_by_round(ENTRANTS, finished, 4) == {
        1: [1, 1, 1, 1],
        2: [3, 3, 2, 2],
        3: [2, 2, 3, 3],
    }


@pytest.mark.django_db
def test_event_crosstable_from_the_database():
    event = build_event()
    data = loaders.event_data(event.t)
    standings = loaders.event_standings(event.t, data)
    assert [(r.name, r.rank, r.match_points) for r in standings] == [
        ("Ann", 1, 6),
        ("Bo", 2, 3),
        ("Cy", 3, 3),
    ]
    rows = {r.name: r for r in loaders.event_crosstable(data, standings)}
    ann = rows["Ann"].cells
    assert (ann[0].opponent_rank, ann[0].side, ann[0].result, ann[0].differential) == (
        2,
        "first",
        "W",
        14,
    )
    assert ann[1] == BYE
    assert (ann[2].opponent_rank, ann[2].side, ann[2].result, ann[2].differential) == (
        3,
        "second",
        "W",
        45,
    )
    # Round 4 is entered but not confirmed: opponent and side, no result.
    assert (ann[3].opponent_rank, ann[3].side, ann[3].result) == (2, "first", None)
    assert rows["Cy"].cells[3] is None
