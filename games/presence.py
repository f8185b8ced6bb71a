"""Presence before time: a timed online battle waits for both players (pure rules).

Terminology and invariants:
- A battle *awaits its players* when its clock would otherwise start with nobody there:
  an online, timed, quickfire battle (casual or tournament). A correspondence battle,
  an untimed one and one played over the board start as before (``needs_players``).
- A player *joins* by opening the battle page with its live stream connected, or by
  pressing *Ready*. Joining twice is joining once: the first time is kept.
- When the second player joins, the clock starts (``both_joined``), exactly once.
- The *join window* runs from the first join: once it has passed and the other player
  still has not joined, the one who joined may claim the opponent a *no-show*
  (``no_show_refusal`` is ``None``).

Nothing here reads a clock or imports Django: ``now`` is always an argument.

>>> from datetime import UTC, datetime, timedelta
>>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
>>> p = join(Presence(window_ms=60_000), FIRST, t0)
>>> both_joined(p), no_show_refusal(p, FIRST, t0 + timedelta(seconds=59))
(False, 'too_early')
>>> no_show_refusal(p, FIRST, t0 + timedelta(seconds=60)) is None
True
>>> both_joined(join(p, SECOND, t0 + timedelta(seconds=5)))
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

FIRST, SECOND = 0, 1

#: Why a no-show claim is refused (``no_show_refusal``).
NOT_AWAITING = "not_awaiting"  # the battle is not waiting for its players
NOT_JOINED = "not_joined"  # the claimant has not joined it
OPPONENT_JOINED = "opponent_joined"  # both are here: nobody is missing
TOO_EARLY = "too_early"  # the join window has not passed yet


@dataclass(frozen=True)
class Presence:
    """When each seat joined (``None``: not yet) and how long the other may take."""

    window_ms: int
    first_joined_at: datetime | None = None
    second_joined_at: datetime | None = None
    awaiting: bool = True

    def joined_at(self, seat: int) -> datetime | None:
        return self.first_joined_at if seat == FIRST else self.second_joined_at


def needs_players(*, online: bool, timed: bool, correspondence: bool) -> bool:
    """Whether a battle of this kind waits for both players before its clock runs."""
    return online and timed and not correspondence


def join(presence: Presence, seat: int, now: datetime) -> Presence:
    """``seat`` joins at ``now``; a second join keeps the first time (idempotent)."""
    if presence.joined_at(seat) is not None:
        return presence
    if seat == FIRST:
        return replace(presence, first_joined_at=now)
    return replace(presence, second_joined_at=now)


def both_joined(presence: Presence) -> bool:
    return presence.first_joined_at is not None and presence.second_joined_at is not None


def window_ends_at(presence: Presence) -> datetime | None:
    """The end of the join window: the first join plus the window (``None``: nobody yet)."""
    joins = [t for t in (presence.first_joined_at, presence.second_joined_at) if t is not None]
    if not joins:
        return None
    return min(joins) + timedelta(milliseconds=presence.window_ms)


def no_show_refusal(presence: Presence, seat: int, now: datetime) -> str | None:
    """Why ``seat`` may not claim its opponent a no-show at ``now``, or ``None`` if it may."""
    if not presence.awaiting:
        return NOT_AWAITING
    if presence.joined_at(seat) is None:
        return NOT_JOINED
    if both_joined(presence):
        return OPPONENT_JOINED
    ends = window_ends_at(presence)
    if ends is None or now < ends:
        return TOO_EARLY
    return None
