"""Win statistics by side, as pure functions over plain rows (no Django).

A *result row* is ``(game, winner_index, count)``: ``count`` battles of ``game`` where
``0`` the first side won, ``1`` the second side won, ``None`` it was a draw. A player's
row adds which seat the player had: ``(game, seat, winner_index, count)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.for_games import SideCounts, count_by_side

#: Counts of one game's finished battles by result, with percentages rounded half up to
#: two decimals: the same rule as the tournament statistics (``tournaments.reports.side_counts``).
SideStats = SideCounts


def by_side(
    games: Iterable[str], rows: Iterable[tuple[str, int | None, int]]
) -> dict[str, SideStats]:
    """Site-wide: for each game, wins of the first side, of the second side, and draws.

    >>> s = by_side(["thud", "cavalli"], [("thud", 0, 1), ("thud", None, 1), ("cavalli", 1, 1)])
    >>> (s["thud"].first, s["thud"].draws, s["cavalli"].second, s["cavalli"].total)
    (1, 1, 1, 1)
    """
    rows = list(rows)
    return {game: count_by_side((w, n) for g, w, n in rows if g == game) for game in games}


@dataclass(frozen=True)
class PlayerStats:
    """One player's battles of one game: as the first side and as the second side."""

    as_first: SideStats = SideStats()
    as_second: SideStats = SideStats()

    @property
    def won(self) -> int:
        return self.as_first.first + self.as_second.second

    @property
    def lost(self) -> int:
        return self.as_first.second + self.as_second.first

    @property
    def draws(self) -> int:
        return self.as_first.draws + self.as_second.draws

    @property
    def total(self) -> int:
        return self.as_first.total + self.as_second.total


def for_player(
    games: Iterable[str], rows: Iterable[tuple[str, int, int | None, int]]
) -> dict[str, PlayerStats]:
    """Per player: ``rows`` are ``(game, seat, winner_index, count)`` with seat 0 or 1.

    >>> rows = [("cavalli", 0, 0, 1), ("cavalli", 1, 0, 1), ("cavalli", 1, None, 1)]
    >>> p = for_player(["cavalli"], rows)
    >>> p["cavalli"].won, p["cavalli"].lost, p["cavalli"].draws, p["cavalli"].as_second.first
    (1, 1, 1, 1)
    """
    rows = list(rows)
    return {
        game: PlayerStats(
            *(
                count_by_side((w, n) for g, s, w, n in rows if g == game and s == seat)
                for seat in (0, 1)
            )
        )
        for game in games
    }


@dataclass(frozen=True)
class ComputerStats:
    """A player's finished battles against the computer at one game and level."""

    game: str
    level: int
    won: int = 0
    drawn: int = 0
    lost: int = 0


def against_computer(rows: Iterable[tuple[str, int, str, int]]) -> list[ComputerStats]:
    """``rows`` are ``(game, level, result, count)``, result ``won``/``drawn``/``lost``:
    one line per game and level played, by game then level.

    >>> [(s.game, s.level, s.won, s.drawn, s.lost) for s in against_computer(
    ...     [("thud", 2, "won", 2), ("thud", 1, "lost", 1), ("thud", 2, "drawn", 1)])]
    [('thud', 1, 0, 0, 1), ('thud', 2, 2, 1, 0)]
    """
    counts: dict[tuple[str, int], dict[str, int]] = {}
    for game, level, result, n in rows:
        line = counts.setdefault((game, level), {"won": 0, "drawn": 0, "lost": 0})
        line[result] += n
    return [ComputerStats(game, level, **counts[game, level]) for game, level in sorted(counts)]
