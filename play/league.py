"""The engine league: the bot accounts' own rating pool, per game (issue 45).

Terminology and invariants:
- A *league match* is a rated casual match of the game, ended (``CasualMatch.objects
  .rated_ended``), whose two users are bot accounts (``between_bots``; ``play.bots``), and
  that ended at or before ``now`` (a match ending later is not final yet, as in the
  people's pool). A bot against a person is never rated; people's matches are the
  people's pool (``play.rated``), never this one.
- The bots' ratings are folded exactly as the people's casual matches are
  (``tournaments.rating.sources.casual_periods``, which ``play`` may not import: its
  rule is repeated here over the pure ``ratings.periods``): one ``Period`` per match at
  its ``ended_at``, key ``(0, match id)``, with one ``RatedMatch`` whose score is
  ``score_from_differential(differential_a)`` for ``user_a``. The players are the users'
  ids, not ``Player`` rows: a bot has no player and gets none from here; nothing is stored,
  the page folds its game's league matches each time it is read.
- A line's rating is the bot's values after its last period (as the people's list shows).
  Lines sort by rating, best first, then by name, then by user id.
- Won, drawn and lost go by the sign of ``differential_a`` (for ``user_b`` the other way).
- One query whatever the number of bots or matches: the league matches as plain values,
  the names joined in (``league_matches``); the page adds none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ratings.glicko2 import Rating
from ratings.periods import Period, RatedMatch, display, fold, provisional, score_from_differential

from .models import CasualMatch

#: How many of the latest league matches the page lists.
RECENT = 20

#: The first half of a casual period's key (``tournaments.rating.sources.CASUAL``).
CASUAL = 0


@dataclass(frozen=True)
class LeagueMatch:
    """One league match as plain data (what the fold and the page read)."""

    match_id: int
    ended_at: datetime
    bot_a: int
    bot_b: int
    name_a: str
    name_b: str
    differential_a: int
    battle_1: int


@dataclass(frozen=True)
class Line:
    """One bot's line in the league table."""

    user_id: int
    name: str
    rating: Rating
    won: int
    drawn: int
    lost: int

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def shown(self) -> str:
        return display(self.rating)

    @property
    def provisional(self) -> bool:
        return provisional(self.rating.rd)


@dataclass(frozen=True)
class League:
    game: str
    lines: tuple[Line, ...]
    recent: tuple[LeagueMatch, ...]  # the latest first


def periods(matches: Iterable[LeagueMatch]) -> list[Period]:
    """Each match as its own rating period, as the people's casual matches are."""
    return [
        Period(
            m.ended_at,
            (CASUAL, m.match_id),
            (RatedMatch(m.bot_a, m.bot_b, score_from_differential(m.differential_a)),),
        )
        for m in matches
    ]


def standings(matches: Sequence[LeagueMatch]) -> tuple[Line, ...]:
    """The league table of ``matches`` (pure: no database, no clock).

    >>> from datetime import UTC
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> [(x.name, x.won, x.lost, x.shown) for x in standings([LeagueMatch(1, t, 7, 8, "a", "b", -4, 1)])]
    [('b', 1, 0, '1662?'), ('a', 0, 1, '1338?')]
    """
    states = fold(periods(matches)).states
    names: dict[int, str] = {}
    counts: dict[int, list[int]] = {}
    for m in matches:
        names[m.bot_a], names[m.bot_b] = m.name_a, m.name_b
        # index 0 won, 1 drawn, 2 lost, for user_a; user_b's is the mirror
        a = 0 if m.differential_a > 0 else 2 if m.differential_a < 0 else 1
        counts.setdefault(m.bot_a, [0, 0, 0])[a] += 1
        counts.setdefault(m.bot_b, [0, 0, 0])[2 - a] += 1
    lines = [Line(bot, names[bot], states[bot].rating, *counts[bot]) for bot in counts]
    lines.sort(key=lambda x: (-x.rating.rating, x.name.casefold(), x.user_id))
    return tuple(lines)


def league_matches(game: str, *, now: datetime) -> list[LeagueMatch]:
    """The league matches of ``game`` final at ``now``, in (ended_at, id) order: one query."""
    rows = (
        CasualMatch.objects.rated_ended(game)
        .between_bots()
        .filter(ended_at__lte=now)
        .order_by("ended_at", "pk")
        .values_list(
            "pk",
            "ended_at",
            "user_a_id",
            "user_b_id",
            "user_a__username",
            "user_b__username",
            "differential_a",
            "battle_1_id",
        )
    )
    return [LeagueMatch(*row) for row in rows]


def league(game: str, *, now: datetime) -> League:
    """The engine league of ``game`` at ``now``: every bot that has played a league match,
    best first, and the latest ``RECENT`` matches, the latest first."""
    matches = league_matches(game, now=now)
    return League(game, standings(matches), tuple(reversed(matches[-RECENT:])))
