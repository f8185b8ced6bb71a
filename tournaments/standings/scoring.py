"""Scoring of one match: two battles with sides swapped, in any game.

Terminology
-----------
- A **match** between players A and B is two **battles**. In battle 1 A has the first side
  and B the second; in battle 2 the sides swap.
- **Battle points**: each side scores its number times its game's weight
  (``GameScale.weights`` in ``tournaments.results.value``; the games declare them).
- **Differential** (from A's point of view) = sum over both battles of A's points minus B's.
  Its sign decides the match **outcome**: ``"a"`` (A wins), ``"b"`` or ``"draw"``.
- A battle is **won** by the player who scored more points in it; an equal battle is won by
  nobody.

Invariants
----------
- No database: plain values in, a ``MatchScore`` out. ``MatchScore`` is immutable and
  always seen from A's side: ``differential == sum(a_points) - sum(b_points)``.
- The limits and weights live in the game's scale; out-of-range numbers raise
  ``SurvivorsError`` (a ``ValueError``) naming the offending field.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.results.value import THUD, Survivors

__all__ = [
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
    b1_first: int, b1_second: int, b2_first: int, b2_second: int, *, game: str = THUD
) -> MatchScore:
    """Score a match from the four result numbers of ``game``.

    Battle 1: A has the first side (A scores ``b1_first`` x its weight, B ``b1_second`` x
    the second side's weight). Battle 2: B has the first side.

    >>> s = score_match(5, 2, 10, 3, game="cavalli")
    >>> s.a_points, s.b_points, s.differential, s.outcome
    ((5, 3), (2, 10), -4, 'b')
    """
    return score(Survivors(b1_first, b1_second, b2_first, b2_second, game=game))


def score(survivors: Survivors) -> MatchScore:
    """Score a match from a ``Survivors`` value (see ``score_match``)."""
    a_points = survivors.points_of("a")
    b_points = survivors.points_of("b")
    differential = sum(a_points) - sum(b_points)
    won_a = sum(1 for x, y in zip(a_points, b_points, strict=True) if x > y)
    won_b = sum(1 for x, y in zip(a_points, b_points, strict=True) if y > x)
    outcome = "a" if differential > 0 else "b" if differential < 0 else "draw"
    return MatchScore(a_points, b_points, differential, won_a, won_b, outcome)
