"""The rating fold: Glicko-2 ratings as a pure function of the rated results, in order.

Terms:

* A **period** is one finished round (its rated matches) or one rated casual match. It has
  the time it became final (``at``: the round's finishing time, the casual match's end) and a
  **key** that breaks ties between periods final at the same instant: (tournament id, round
  number) for a round; the adapter gives a casual match a key that sorts it among them (for
  instance ``(0, match id)``).
* A **rated match** is ``(player, opponent, score)``: two player ids and the first player's
  score (1, 0.5 or 0, by the sign of the match differential: :func:`score_from_differential`);
  the opponent scores ``1 - score``.
* A player's **state** is their values after their last period and when that period was
  (its time and key). A player with no state is new: 1500 / 350 / 0.06.
* **Idle spans**: before a player's period their RD grows as for ``t`` empty periods,
  ``t`` = whole 30-day spans since their last period (0 within 30 days), capped at 350
  (:func:`ratings.glicko2.grow`).

Invariants:

* Periods apply in order of ``(at, key)``; within a period every player is rated against
  their opponents' values from before the period, idle growth included (the same values
  the opponents' own update starts from), so the order of the matches does not matter.
* Players not in a period keep their values.
* ``fold(later, previous=fold(earlier).states)`` equals ``fold(earlier + later)`` exactly,
  numbers and history: a recompute equals the incremental numbers. A period at or before a
  player's last period is refused (:class:`PeriodError`): recompute from the start instead.
* Nothing here reads a clock: the times are the periods' own.

The rating is per game (Thud, Battaglia di Cavalli): fold each game's periods separately.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from .glicko2 import SCORES, TAU, Game, Rating, grow, rate

IDLE_SPAN = timedelta(days=30)
PROVISIONAL_RD = 110.0

Key = tuple[int, int]


class PeriodError(ValueError):
    """Periods the fold cannot apply: a match against oneself, a bad score, a naive time,
    two periods with one key, or a period that comes before a player's last one."""


def score_from_differential(differential: float) -> float:
    """A match's score for the player whose differential it is: 1, 0.5 or 0 by its sign.

    >>> [score_from_differential(d) for d in (12, 0, -3)]
    [1.0, 0.5, 0.0]
    """
    if differential > 0:
        return 1.0
    if differential < 0:
        return 0.0
    return 0.5


def provisional(rd: float) -> bool:
    """A rating is provisional while its RD is above 110."""
    return rd > PROVISIONAL_RD


def display(rating: Rating) -> str:
    """The rating to a whole number (halves up), with "?" while it is provisional.

    >>> display(Rating(1519.5, 150.0)), display(Rating(1519.49, 110.0))
    ('1520?', '1519')
    """
    shown = str(math.floor(rating.rating + 0.5))
    return f"{shown}?" if provisional(rating.rd) else shown


@dataclass(frozen=True)
class RatedMatch:
    player: int
    opponent: int
    score: float  # the player's; the opponent's is 1 - score

    def __post_init__(self) -> None:
        if self.player == self.opponent:
            raise PeriodError(f"player {self.player} cannot play themselves")
        if isinstance(self.score, bool) or self.score not in SCORES:
            raise PeriodError(f"score must be 0, 0.5 or 1, not {self.score!r}")


@dataclass(frozen=True)
class Period:
    at: datetime
    key: Key
    matches: tuple[RatedMatch, ...]

    def __post_init__(self) -> None:
        if self.at.utcoffset() is None:
            raise PeriodError(f"period {self.key} needs a time with its time zone")


@dataclass(frozen=True)
class PlayerState:
    rating: Rating
    last_at: datetime
    last_key: Key


@dataclass(frozen=True)
class Faced:
    """One game of a player's period: the opponent, their values from before the period,
    and the player's score."""

    opponent: int
    rating: Rating
    score: float


@dataclass(frozen=True)
class HistoryEntry:
    """One player's period, enough to explain it ("+12.4 · won against Sam Vimes 1620")."""

    player: int
    at: datetime
    key: Key
    before: Rating  # after the player's previous period (or a new player's values)
    idle_spans: int  # whole 30-day spans since that period
    start: Rating  # ``before`` with its RD grown for ``idle_spans``: what the period rated
    after: Rating
    games: tuple[Faced, ...]

    @property
    def change(self) -> float:
        return self.after.rating - self.before.rating


@dataclass(frozen=True)
class Fold:
    states: Mapping[int, PlayerState]  # every player's, the untouched ones included
    history: tuple[HistoryEntry, ...]  # in period order, then by player id


def idle_spans(last_at: datetime | None, at: datetime) -> int:
    """Whole 30-day spans from ``last_at`` to ``at`` (0 for a new player).

    >>> from datetime import UTC
    >>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
    >>> [idle_spans(t0, t0 + timedelta(days=d)) for d in (0, 29, 30, 61)]
    [0, 0, 1, 2]
    """
    if last_at is None:
        return 0
    return max(0, (at - last_at) // IDLE_SPAN)


def as_of(state: PlayerState | None, at: datetime) -> Rating:
    """The player's values at ``at``: their RD grown for the idle spans since their last
    period (what a period at ``at`` starts from, and what a page shows at ``at``)."""
    if state is None:
        return Rating()
    return grow(state.rating, idle_spans(state.last_at, at))


def ordered(periods: Iterable[Period]) -> list[Period]:
    """The periods in the order they apply: by time, ties by key; one key, one period."""
    result = sorted(periods, key=lambda p: (p.at, p.key))
    seen: set[Key] = set()
    for period in result:
        if period.key in seen:
            raise PeriodError(f"two periods have the key {period.key}")
        seen.add(period.key)
    return result


def fold(
    periods: Iterable[Period],
    *,
    previous: Mapping[int, PlayerState] | None = None,
    tau: float = TAU,
) -> Fold:
    """Apply ``periods`` (in :func:`ordered` order) to the ``previous`` states."""
    states = dict(previous or {})
    history: list[HistoryEntry] = []
    for period in ordered(periods):
        history.extend(_apply(states, period, tau))
    return Fold(states=states, history=tuple(history))


def _apply(states: dict[int, PlayerState], period: Period, tau: float) -> list[HistoryEntry]:
    """Rate one period's players against their opponents' pre-period values; update
    ``states`` in place and return the players' history entries."""
    faced: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for match in period.matches:
        faced[match.player].append((match.opponent, match.score))
        faced[match.opponent].append((match.player, 1 - match.score))
    for player in faced:
        last = states.get(player)
        if last is not None and (period.at, period.key) <= (last.last_at, last.last_key):
            raise PeriodError(
                f"period {period.key} at {period.at.isoformat()} is not after player "
                f"{player}'s last period {last.last_key} at {last.last_at.isoformat()}: "
                "recompute from the start"
            )
    start = {player: as_of(states.get(player), period.at) for player in faced}
    entries = []
    for player in sorted(faced):
        # Sorted, so the sums (and the last bits of the result) do not depend on the order
        # the adapter read the matches in.
        games = tuple(Faced(o, start[o], s) for o, s in sorted(faced[player]))
        after = rate(
            start[player], [Game(f.rating.rating, f.rating.rd, f.score) for f in games], tau=tau
        )
        before = states[player].rating if player in states else Rating()
        entries.append(
            HistoryEntry(
                player=player,
                at=period.at,
                key=period.key,
                before=before,
                idle_spans=idle_spans(_last_at(states, player), period.at),
                start=start[player],
                after=after,
                games=games,
            )
        )
    for entry in entries:
        states[entry.player] = PlayerState(entry.after, period.at, period.key)
    return entries


def _last_at(states: Mapping[int, PlayerState], player: int) -> datetime | None:
    state = states.get(player)
    return None if state is None else state.last_at
