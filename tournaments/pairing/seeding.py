"""Seeding by rating, pure: the order a re-seed gives the entries before round 1.

- The **seed** of an entry is its place in this order, from 1.
- A player's rating for seeding is their **site rating** in the tournament's game
  (``tournaments.rating``) when they have one, else the rating entered for them.
- Rated players come first, higher rating first; players of equal rating keep their
  entry order (who was entered first); unrated players follow the rated ones, in entry
  order too. No Django imports.

>>> order_by_rating([SeedRecord(1, None, 1), SeedRecord(2, 1500, 2), SeedRecord(3, 1800, 3)])
[3, 2, 1]
>>> order_by_rating([SeedRecord(1, 1900, 1), SeedRecord(2, None, 2, site_rating=1950.5)])
[2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeedRecord:
    id: int
    rating: int | None  # as entered
    entered: int  # entry order: smaller was entered earlier
    site_rating: float | None = None  # the site's, in the tournament's game

    @property
    def seeding_rating(self) -> float | None:
        return self.site_rating if self.site_rating is not None else self.rating


def order_by_rating(records: Sequence[SeedRecord]) -> list[int]:
    """The ids in seeding order: by site rating, else entered rating (highest first,
    unrated last), ties by entry order."""
    ranked = sorted(
        records,
        key=lambda r: (r.seeding_rating is None, -(r.seeding_rating or 0), r.entered),
    )
    return [r.id for r in ranked]
