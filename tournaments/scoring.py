"""Scoring of one match (two battles with sides swapped), described here for Thud.

Another game scores the same way with its own battle points (``tournaments.survivors``:
Battaglia di Cavalli's battle points are each side's points as they are).

Terminology
-----------
- A **match** between players A and B is two **battles**. In battle 1 A has the dwarfs and B
  the trolls; in battle 2 the sides swap.
- **Battle points**: the dwarf player scores the number of surviving dwarfs (0-32), the troll
  player scores 4 x the number of surviving trolls (0-8).
- **Differential** (from A's point of view) = sum over both battles of A's points minus B's.
  Its sign decides the match **outcome**: ``"a"`` (A wins), ``"b"`` or ``"draw"``.
- A battle is **won** by the player who scored more points in it; an equal battle is won by
  nobody.

Invariants
----------
- No database: plain values in, a ``MatchScore`` out. ``MatchScore`` is immutable and
  always seen from A's side: ``differential == sum(a_points) - sum(b_points)``.
- The survivor limits and the troll value live in ``tournaments.survivors``; out-of-range
  counts raise ``SurvivorsError`` (a ``ValueError``) naming the offending field.
"""

from __future__ import annotations

from dataclasses import dataclass

from .survivors import MAX_DWARFS, MAX_TROLLS, THUD, TROLL_POINTS, Survivors

__all__ = [
    "MAX_DWARFS",
    "MAX_TROLLS",
    "TROLL_POINTS",
    "MatchScore",
    "PointsScheme",
    "score",
    "score_match",
]


@dataclass(frozen=True)
class MatchScore:
    """The result of one match, from A's point of view."""

    a_points: tuple[int, int]  # A's battle points in battle 1 and battle 2
    b_points: tuple[int, int]
    differential: int  # A minus B, summed over both battles
    battles_won_a: int
    battles_won_b: int
    outcome: str  # "a" | "b" | "draw"


@dataclass(frozen=True)
class PointsScheme:
    """Match points awarded per outcome (a bye counts as a win)."""

    win: int = 2
    draw: int = 1
    loss: int = 0


def score_match(
    b1_dwarfs: int, b1_trolls: int, b2_dwarfs: int, b2_trolls: int, *, game: str = THUD
) -> MatchScore:
    """Score a match from the four result numbers of ``game`` (Thud: survivors).

    Battle 1: A has the dwarfs (A scores ``b1_dwarfs``, B scores 4 x ``b1_trolls``).
    Battle 2: B has the dwarfs (B scores ``b2_dwarfs``, A scores 4 x ``b2_trolls``).

    >>> s = score_match(5, 2, 10, 3)
    >>> s.a_points, s.b_points, s.differential, s.outcome
    ((5, 12), (8, 10), -1, 'b')
    """
    return score(Survivors(b1_dwarfs, b1_trolls, b2_dwarfs, b2_trolls, game=game))


def score(survivors: Survivors) -> MatchScore:
    """Score a match from a ``Survivors`` value (see ``score_match``)."""
    a_points = survivors.points_of("a")
    b_points = survivors.points_of("b")
    differential = sum(a_points) - sum(b_points)
    won_a = sum(1 for x, y in zip(a_points, b_points, strict=True) if x > y)
    won_b = sum(1 for x, y in zip(a_points, b_points, strict=True) if y > x)
    outcome = "a" if differential > 0 else "b" if differential < 0 else "draw"
    return MatchScore(a_points, b_points, differential, won_a, won_b, outcome)
