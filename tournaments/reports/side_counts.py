"""Results counted by the side that won, with percentages: one rule for every page.

Terminology and invariants:

- A game has a *first side* (the one that moves first)
  and a *second side*. A *result* is ``(winner, n)``: ``n`` games won by the first side
  (``winner`` 0), by the second side (1) or drawn (``None``).
- **Percentages** are of all games, rounded half up to two decimals ("59.92 %"); with no
  game every percentage is 0.00. They need not add up to exactly 100.

Used by the tournament statistics (``tournaments.reports.stats``, confirmed results) and by the
casual play statistics (``play.stats``, finished online battles). Pure: no database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

HUNDREDTH = Decimal("0.01")


def percentage(part: int, whole: int) -> Decimal:
    """``part`` of ``whole`` in per cent, two decimals, half up; 0.00 of nothing.

    >>> percentage(1, 3), percentage(2, 3), percentage(0, 0)
    (Decimal('33.33'), Decimal('66.67'), Decimal('0.00'))
    """
    if whole == 0:
        return Decimal("0.00")
    return (Decimal(100 * part) / Decimal(whole)).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class SideCounts:
    """Games won by the first side, by the second side, and drawn."""

    first: int = 0
    second: int = 0
    draws: int = 0

    @property
    def total(self) -> int:
        return self.first + self.second + self.draws

    @property
    def first_pct(self) -> Decimal:
        return percentage(self.first, self.total)

    @property
    def second_pct(self) -> Decimal:
        return percentage(self.second, self.total)

    @property
    def draws_pct(self) -> Decimal:
        return percentage(self.draws, self.total)


def count_by_side(results: Iterable[tuple[int | None, int]]) -> SideCounts:
    """Add up ``(winner, n)`` results (winner 0: first side, 1: second side, None: draw).

    >>> c = count_by_side([(0, 2), (None, 1), (1, 1), (0, 1)])
    >>> c.first, c.second, c.draws, c.total, c.first_pct, c.draws_pct
    (3, 1, 1, 5, Decimal('60.00'), Decimal('20.00'))
    """
    counts = [0, 0, 0]
    for winner, n in results:
        if winner not in (0, 1, None):
            raise ValueError(f"winner is 0, 1 or None, not {winner!r}")
        counts[2 if winner is None else winner] += n
    return SideCounts(*counts)
