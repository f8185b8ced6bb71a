"""Win statistics by side, as pure functions over plain rows (no Django).

A *result row* is ``(game, winner_index, count)``: ``count`` battles of ``game`` where
``0`` the first side won, ``1`` the second side won, ``None`` it was a draw. A player's
row adds which seat the player had: ``(game, seat, winner_index, count)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SideStats:
    """Counts of one game's finished battles by result."""

    first: int = 0
    second: int = 0
    draws: int = 0

    @property
    def total(self) -> int:
        return self.first + self.second + self.draws

    def percent(self, count: int) -> float:
        """``count`` as a percentage of all battles, 0 when there are none.

        >>> SideStats(3, 1, 0).percent(3)
        75.0
        """
        return 100.0 * count / self.total if self.total else 0.0

    @property
    def first_pct(self) -> float:
        return self.percent(self.first)

    @property
    def second_pct(self) -> float:
        return self.percent(self.second)

    @property
    def draws_pct(self) -> float:
        return self.percent(self.draws)


def _add(stats: SideStats, winner: int | None, n: int) -> SideStats:
    if winner == 0:
        return SideStats(stats.first + n, stats.second, stats.draws)
    if winner == 1:
        return SideStats(stats.first, stats.second + n, stats.draws)
    return SideStats(stats.first, stats.second, stats.draws + n)


def by_side(
    games: Iterable[str], rows: Iterable[tuple[str, int | None, int]]
) -> dict[str, SideStats]:
    """Site-wide: for each game, wins of the first side, of the second side, and draws.

    >>> s = by_side(["thud", "cavalli"], [("thud", 0, 1), ("thud", None, 1), ("cavalli", 1, 1)])
    >>> (s["thud"].first, s["thud"].draws, s["cavalli"].second, s["cavalli"].total)
    (1, 1, 1, 1)
    """
    out = {game: SideStats() for game in games}
    for game, winner, n in rows:
        if game in out:
            out[game] = _add(out[game], winner, n)
    return out


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
    out = {game: PlayerStats() for game in games}
    for game, seat, winner, n in rows:
        if game not in out:
            continue
        current = out[game]
        if seat == 0:
            out[game] = PlayerStats(_add(current.as_first, winner, n), current.as_second)
        else:
            out[game] = PlayerStats(current.as_first, _add(current.as_second, winner, n))
    return out
