"""Seeding by rating, pure: the order a re-seed gives the entries before round 1.

- The **seed** of an entry is its place in this order, from 1.
- Rated players come first, higher rating first; players of equal rating keep their
  entry order (who was entered first); unrated players follow the rated ones, in entry
  order too. No Django imports.

>>> order_by_rating([SeedRecord(1, None, 1), SeedRecord(2, 1500, 2), SeedRecord(3, 1800, 3)])
[3, 2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeedRecord:
    id: int
    rating: int | None
    entered: int  # entry order: smaller was entered earlier


def order_by_rating(records: Sequence[SeedRecord]) -> list[int]:
    """The ids in seeding order: by rating (highest first, unrated last), ties by entry order."""
    ranked = sorted(
        records,
        key=lambda r: (r.rating is None, -(r.rating or 0), r.entered),
    )
    return [r.id for r in ranked]
