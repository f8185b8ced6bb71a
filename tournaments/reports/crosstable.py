"""The crosstable (players × rounds) and each player's rank after every round.

Terminology
-----------
- A **pairing** (``CrossMatch``) is one match of a public round: ``a`` had the first side in
  battle 1, ``b is None`` marks a bye, ``result is None`` a result not yet confirmed.
- A **cell** is one player's match in one round, from that player's point of view: the
  opponent, the opponent's rank in the final (current) standings, the side the player had
  in battle 1, and once confirmed the result (``"W"``, ``"D"``, ``"L"``) with the match
  differential (own points minus the opponent's over both battles). A bye is its own cell;
  a round without a match for the player (late entry, withdrawal) has no cell (``None``).
- **Rank by round**: the player's rank in the standings computed over rounds 1..k, for
  each k, with the same pure standings function and rules as the final standings.

Invariants
----------
- Rows follow the standings order; every row has one slot per round 1..``rounds``.
- Pure: plain values in, plain values out; O(players × rounds) plus the standings runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.rules.result import MatchResult
from tournaments.standings.scoring import PointsScheme, score
from tournaments.standings.table import (
    EntrantRecord,
    MatchRecord,
    StandingRow,
    compute_standings,
)
from tournaments.standings.tiebreaks import KEYS


@dataclass(frozen=True)
class CrossMatch:
    round: int
    a: int
    b: int | None  # None = bye
    result: MatchResult | None = None  # None = not confirmed (or a bye)


@dataclass(frozen=True)
class Cell:
    bye: bool = False
    opponent_id: int | None = None
    opponent_rank: int | None = None
    side: str | None = None  # "first" | "second": the player's side in battle 1
    result: str | None = None  # "W" | "D" | "L"; None until confirmed
    differential: int | None = None


@dataclass(frozen=True)
class CrossRow:
    rank: int
    entry_id: int
    name: str
    match_points: int
    cells: tuple[Cell | None, ...]


BYE = Cell(bye=True, result="W", differential=0)


def _cell(match: CrossMatch, me: int, ranks: dict[int, int]) -> Cell:
    if match.b is None:
        return BYE
    is_a = match.a == me
    opponent = match.b if is_a else match.a
    result = differential = None
    if match.result is not None:
        s = score(match.result)
        differential = s.differential if is_a else -s.differential
        result = "W" if differential > 0 else "L" if differential < 0 else "D"
    return Cell(
        opponent_id=opponent,
        opponent_rank=ranks.get(opponent),
        side="first" if is_a else "second",
        result=result,
        differential=differential,
    )


def crosstable(
    standings: Sequence[StandingRow], matches: Sequence[CrossMatch], rounds: int
) -> list[CrossRow]:
    """One row per standings row, one cell per round 1..``rounds``.

    >>> from tournaments.standings.table import EntrantRecord, MatchRecord, compute_standings
    >>> result = MatchResult(10, 1, 5, 2, game="thud")
    >>> rows = compute_standings([EntrantRecord(1, "Ann", 1), EntrantRecord(2, "Bo", 2)],
    ...                          [MatchRecord(1, 1, 2, result)])
    >>> table = crosstable(rows, [CrossMatch(1, 1, 2, result)], 1)
    >>> [(r.name, r.cells[0].opponent_rank, r.cells[0].side, r.cells[0].result) for r in table]
    [('Ann', 2, 'first', 'W'), ('Bo', 1, 'second', 'L')]
    """
    ranks = {row.entry_id: row.rank for row in standings}
    by_player: dict[int, dict[int, CrossMatch]] = {row.entry_id: {} for row in standings}
    for match in matches:
        if not 1 <= match.round <= rounds:
            continue
        for player in (match.a, match.b):
            if player is not None and player in by_player:
                by_player[player][match.round] = match
    return [
        CrossRow(
            rank=row.rank,
            entry_id=row.entry_id,
            name=row.name,
            match_points=row.match_points,
            cells=tuple(
                _cell(by_player[row.entry_id][n], row.entry_id, ranks)
                if n in by_player[row.entry_id]
                else None
                for n in range(1, rounds + 1)
            ),
        )
        for row in standings
    ]


def ranks_by_round(
    entrants: Sequence[EntrantRecord],
    matches: Sequence[MatchRecord],
    rounds: int,
    *,
    points: PointsScheme = PointsScheme(),  # noqa: B008 - frozen, so a shared default is safe
    order: Sequence[str] = KEYS,
) -> dict[int, list[int]]:
    """Each entrant's rank after rounds 1..k for k = 1..``rounds``.

    ``matches`` are the finished matches (as for ``compute_standings``).

    >>> e = [EntrantRecord(1, "Ann", 1), EntrantRecord(2, "Bo", 2)]
    >>> r1, r2 = MatchResult(10, 1, 5, 2, game="thud"), MatchResult(30, 0, 0, 0, game="thud")
    >>> ranks_by_round(e, [MatchRecord(1, 1, 2, r1), MatchRecord(2, 2, 1, r2)], 2)
    {1: [1, 2], 2: [2, 1]}
    """
    history: dict[int, list[int]] = {e.id: [] for e in entrants}
    for k in range(1, rounds + 1):
        upto = [m for m in matches if m.round <= k]
        for row in compute_standings(entrants, upto, points=points, order=order):
            history[row.entry_id].append(row.rank)
    return history
