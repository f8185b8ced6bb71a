"""Standings: match points and tiebreaks from finished matches.

Terminology
-----------
- An **entrant** (``EntrantRecord``) is one entry in the tournament; ``initial_points`` are
  match points granted up front (late entries) and count everywhere match points count.
- A **match record** is one finished match seen from A (A had the first side in battle 1); ``b is
  None`` marks a **bye**. A bye counts as played, as a win with differential 0, and adds
  nothing to Buchholz, Sonneborn-Berger or battles won.
- **match_points** = initial points + points-scheme value of every outcome (bye = win).
- **differential** = sum of the player's match differentials (their points minus the
  opponent's, both battles).
- **buchholz** = sum of the *final* match points of every opponent met (a bye adds 0).
- **sonneborn_berger** = sum over matches of the opponent's final match points x 1 for a win,
  1/2 for a draw, 0 for a loss (a bye adds 0).
- **battles_won** = battles in which the player scored more points than the opponent.
- **seed**: the last resort; a *lower* seed ranks first. Every other key ranks higher first.

Invariants
----------
- ``wins + draws + losses + byes == played`` (``wins`` excludes byes).
- Rows are sorted by ``order``; rows equal on every key of ``order`` share a rank
  (competition ranking: 1, 1, 3) and are listed by entry id. ``separated_by`` names the first
  key of ``order`` on which a row differs from the row above.
- One pass over the matches plus one pass over the entrants: O(entrants + matches), then a
  sort. Pure: no Django imports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.rules.result import MatchResult
from tournaments.standings.scoring import PointsScheme, score
from tournaments.standings.tiebreaks import KEYS


@dataclass(frozen=True)
class MatchRecord:
    """One finished match (or bye) as standings input."""

    round: int
    a: int
    b: int | None  # None = bye
    result: MatchResult | None = None  # None for a bye; a match's always

    def __post_init__(self) -> None:
        if (self.b is None) != (self.result is None):
            raise ValueError(f"round {self.round}: a match has a result, a bye none")


@dataclass(frozen=True)
class EntrantRecord:
    id: int
    name: str
    seed: int
    initial_points: int = 0


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entry_id: int
    name: str
    seed: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    match_points: int
    differential: int
    buchholz: int
    sonneborn_berger: float
    battles_won: int
    tied_with_previous: bool
    separated_by: str | None


def match_points_of(outcome: str, points: PointsScheme) -> tuple[int, int]:
    """A's and B's match points for a match's ``outcome`` (``"a"``, ``"b"`` or
    ``"draw"``, ``scoring.score``): the one reading of the points scheme, for the
    standings and for the API's pairings. A bye scores as A's win.

    >>> scheme = PointsScheme(win=3, draw=1, loss=0)
    >>> match_points_of("a", scheme), match_points_of("b", scheme), match_points_of("draw", scheme)
    ((3, 0), (0, 3), (1, 1))
    """
    if outcome == "a":
        return points.win, points.loss
    if outcome == "b":
        return points.loss, points.win
    return points.draw, points.draw


class _Tally:
    __slots__ = ("wins", "draws", "losses", "byes", "diff", "battles", "points", "opponents")

    def __init__(self) -> None:
        self.wins = self.draws = self.losses = self.byes = self.diff = self.battles = 0
        self.points = 0  # match points won (the initial points are the entrant's)
        # (opponent id, result factor for Sonneborn-Berger: 1.0 / 0.5 / 0.0)
        self.opponents: list[tuple[int, float]] = []


def compute_standings(
    entrants: Sequence[EntrantRecord],
    matches: Sequence[MatchRecord],
    *,
    points: PointsScheme = PointsScheme(),  # noqa: B008 - frozen, so a shared default is safe
    order: Sequence[str] = KEYS,
) -> list[StandingRow]:
    """Rank ``entrants`` by ``order`` after ``matches``.

    Raises ``ValueError`` for an unknown tiebreak key, a duplicate entrant id, a match naming
    an unknown entrant.
    """
    unknown = [key for key in order if key not in KEYS]
    if unknown:
        raise ValueError(f"unknown tiebreak key(s): {', '.join(unknown)}")
    if len(set(order)) != len(order):
        raise ValueError("tiebreak keys must not repeat")

    tallies: dict[int, _Tally] = {}
    for entrant in entrants:
        if entrant.id in tallies:
            raise ValueError(f"duplicate entrant id {entrant.id}")
        tallies[entrant.id] = _Tally()

    for match in matches:
        ta = tallies.get(match.a)
        if ta is None:
            raise ValueError(f"match in round {match.round} names unknown entrant {match.a}")
        if match.b is None or match.result is None:
            ta.byes += 1
            ta.points += match_points_of("a", points)[0]
            continue
        tb = tallies.get(match.b)
        if tb is None:
            raise ValueError(f"match in round {match.round} names unknown entrant {match.b}")
        s = score(match.result)
        ta.diff += s.differential
        tb.diff -= s.differential
        ta.battles += s.battles_won_a
        tb.battles += s.battles_won_b
        a_points, b_points = match_points_of(s.outcome, points)
        ta.points += a_points
        tb.points += b_points
        if s.outcome == "a":
            ta.wins += 1
            tb.losses += 1
            ta.opponents.append((match.b, 1.0))
            tb.opponents.append((match.a, 0.0))
        elif s.outcome == "b":
            tb.wins += 1
            ta.losses += 1
            ta.opponents.append((match.b, 0.0))
            tb.opponents.append((match.a, 1.0))
        else:
            ta.draws += 1
            tb.draws += 1
            ta.opponents.append((match.b, 0.5))
            tb.opponents.append((match.a, 0.5))

    match_points = {e.id: e.initial_points + tallies[e.id].points for e in entrants}

    # One dict per entrant, keyed by StandingRow's field names (the tiebreak keys among them).
    rows: list[dict[str, Any]] = []
    for e in entrants:
        t = tallies[e.id]
        buchholz = 0
        sb = 0.0
        for opp, factor in t.opponents:
            mp = match_points[opp]
            buchholz += mp
            sb += mp * factor
        rows.append(
            {
                "entry_id": e.id,
                "name": e.name,
                "seed": e.seed,
                "played": t.wins + t.draws + t.losses + t.byes,
                "wins": t.wins,
                "draws": t.draws,
                "losses": t.losses,
                "byes": t.byes,
                "match_points": match_points[e.id],
                "differential": t.diff,
                "buchholz": buchholz,
                "sonneborn_berger": sb,
                "battles_won": t.battles,
            }
        )

    # Seed ascends (lower seed first); every other key descends.
    def sort_key(row: dict[str, Any]) -> tuple[object, ...]:
        parts: list[object] = [row[k] if k == "seed" else -row[k] for k in order]
        parts.append(row["entry_id"])
        return tuple(parts)

    rows.sort(key=sort_key)

    result: list[StandingRow] = []
    previous: dict[str, Any] | None = None
    rank = 0
    for position, row in enumerate(rows, start=1):
        separated_by: str | None = None
        if previous is not None:
            separated_by = next((k for k in order if row[k] != previous[k]), None)
        tied = previous is not None and separated_by is None
        if not tied:
            rank = position
        result.append(
            StandingRow(rank=rank, tied_with_previous=tied, separated_by=separated_by, **row)
        )
        previous = row
    return result
