"""Scoring of one match: two battles with sides swapped, in any game.

Terminology
-----------
- A **match** between players A and B is two **battles**. In battle 1 A has the first side
  and B the second; in battle 2 the sides swap.
- **Battle points**: each side scores its number times its game's weight
  (``GameScale.weights`` in ``tournaments.rules.result``; the games declare them).
- **Differential** (from A's point of view) = sum over both battles of A's points minus B's.
  Its sign decides the match **outcome**: ``"a"`` (A wins), ``"b"`` or ``"draw"``.
- A battle is **won** by the player who scored more points in it; an equal battle is won by
  nobody.

Invariants
----------
- No database: a ``MatchResult`` in, a ``MatchScore`` out. ``MatchScore`` is immutable and
  always seen from A's side: ``differential == sum(a_points) - sum(b_points)``.
- The limits and weights live in the game's scale; a ``MatchResult`` that exists is
  within them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.rules.result import MatchResult

__all__ = [
    "MatchScore",
    "PointsScheme",
    "score",
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


def score(result: MatchResult) -> MatchScore:
    """Score a match: battle 1 A has the first side, battle 2 B has it.

    >>> s = score(MatchResult(5, 2, 10, 3, game="cavalli"))
    >>> s.a_points, s.b_points, s.differential, s.outcome
    ((5, 3), (2, 10), -4, 'b')
    """
    a_points = result.points_of("a")
    b_points = result.points_of("b")
    differential = sum(a_points) - sum(b_points)
    won_a = sum(1 for x, y in zip(a_points, b_points, strict=True) if x > y)
    won_b = sum(1 for x, y in zip(a_points, b_points, strict=True) if y > x)
    outcome = "a" if differential > 0 else "b" if differential < 0 else "draw"
    return MatchScore(a_points, b_points, differential, won_a, won_b, outcome)
