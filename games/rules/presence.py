"""Presence before time: a timed online battle waits for both players (pure rules).

Terminology and invariants:
- A battle *awaits its players* when its clock would otherwise start with nobody there:
  an online, timed, quickfire battle (casual or tournament). A correspondence battle,
  an untimed one and one played over the board start as before (``needs_players``).
- A player *joins* by having the battle page open where they can see it (its live
  stream connected and the page *visible*, the Page Visibility API), or by pressing
  *Ready*. A page in a background tab does not join (``counts_as_present``): the clock
  must not start, and a turn run out, while its player is elsewhere. Joining twice is
  joining once: the first time is kept.
- When the second player joins, the clock starts (``both_joined``), exactly once.
- The *join window* runs from the first join: once it has passed and the other player
  still has not joined, the one who joined may claim the opponent a *no-show*
  (``no_show_refusal`` is ``None``).
- A battle nobody started *expires* (``expires_at``): :data:`UNJOINED_LIFETIME` after its
  last change (made, or a player joined), and never before the join window has passed.
  It ends with no result; whether anyone had joined says who was missing
  (``anyone_joined``).

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

#: What a page says of itself when it joins (``document.visibilityState``). A plain form
#: POST (the *Ready* button without JavaScript) says nothing: a person pressed it.
VISIBLE, HIDDEN = "visible", "hidden"

#: How long a battle waiting for its players lives without a change: a quickfire
#: challenge's lifetime (``play.models.OFFER_LIFETIME``), the time players are expected
#: to be at the board; then nobody will come (``expires_at``).
UNJOINED_LIFETIME = timedelta(minutes=15)

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


def counts_as_present(visibility: str) -> bool:
    """Whether a join from a page in this ``visibility`` counts: a visible page, or a
    *Ready* press without JavaScript (``""``). A hidden or prerendered page does not.

    >>> counts_as_present(VISIBLE), counts_as_present(""), counts_as_present(HIDDEN)
    (True, True, False)
    """
    return visibility in ("", VISIBLE)


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


def anyone_joined(presence: Presence) -> bool:
    return presence.first_joined_at is not None or presence.second_joined_at is not None


def expires_at(presence: Presence, last_change: datetime) -> datetime | None:
    """When a battle still waiting for its players expires: :data:`UNJOINED_LIFETIME` after
    ``last_change``, not before its join window ends (``None``: it is not waiting).

    >>> from datetime import UTC, datetime
    >>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
    >>> expires_at(Presence(window_ms=60_000), t0) - t0
    datetime.timedelta(seconds=900)
    >>> expires_at(Presence(window_ms=3_600_000, first_joined_at=t0), t0) - t0
    datetime.timedelta(seconds=3600)
    """
    if not presence.awaiting:
        return None
    ends = last_change + UNJOINED_LIFETIME
    window = window_ends_at(presence)
    return max(ends, window) if window is not None else ends


def expired(presence: Presence, last_change: datetime, now: datetime) -> bool:
    ends = expires_at(presence, last_change)
    return ends is not None and now >= ends
