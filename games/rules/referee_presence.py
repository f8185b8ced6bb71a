"""The referee clock cannot run without its referee (pure rules; issue 25).

Terminology and invariants:
- An over-the-board battle has no players at a screen: its clock is driven by the
  referee's clock page alone ("touched", "moved"). That page *beats* (a POST every
  ``BEAT_S``, and once more just after each deadline it shows); the battle row keeps
  the time of the last beat (``Battle.referee_seen_at``). ``None``: no referee page was
  ever seen (started by the API, online play): this rule never applies to it.
- The referee page is *offline* once it has been unseen for longer than
  ``THRESHOLD_MS``. A running over-the-board battle whose referee page is offline is
  paused (``clock.REASON_REFEREE_OFFLINE``), its turn replayed in full on resume,
  exactly as for a site outage: no turn is forfeited for presses that could not arrive.
- An expiry of such a battle waits for the page as it waits for the site: it applies
  only once both were seen at or after its deadline (``seen_for_expiry``).
- A beat from any of the battle's referees resumes a battle paused for this reason,
  and only for this reason: a referee's own pause, or a site outage, is not theirs to end.
- The page that comes back is told (``came_back``): when the battle's latest transitions
  are such a pause and then its resume, nothing since, the page says when the clock
  stopped and for how long, until the next transition (a press, a move, a pause).

Nothing here reads a clock or imports Django: ``now`` is always an argument.

>>> from datetime import UTC, datetime, timedelta
>>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
>>> offline(t0, t0 + timedelta(seconds=3)), offline(t0, t0 + timedelta(seconds=3.001))
(False, True)
>>> offline(None, t0 + timedelta(days=1))  # never seen: never judged
False
>>> seen_for_expiry(t0, t0 - timedelta(seconds=1)) == t0 - timedelta(seconds=1)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

#: How often the referee's clock page beats (the page's own timer, static/js/referee_link.js).
BEAT_S = 1.0
#: How long the page may be unseen before its battle pauses: three beats. With the
#: 1 s sweep, the pause lands within 5 s of the page going offline.
THRESHOLD_MS = 3_000


def offline_before(now: datetime) -> datetime:
    """A page last seen before this time is offline at ``now`` (the sweep's cut-off).

    >>> from datetime import UTC
    >>> offline_before(datetime(2026, 1, 1, 0, 0, 3, tzinfo=UTC)).second
    0
    """
    return now - timedelta(milliseconds=THRESHOLD_MS)


def offline(seen_at: datetime | None, now: datetime) -> bool:
    """Whether a referee page last seen at ``seen_at`` is offline at ``now``."""
    return seen_at is not None and seen_at < offline_before(now)


def seen_for_expiry(
    site_seen_at: datetime | None, referee_seen_at: datetime | None
) -> datetime | None:
    """Until when both the site and the battle's referee page are known to have been
    there: an expiry applies only if this is at or after its deadline.

    >>> from datetime import UTC
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> seen_for_expiry(None, None) is None, seen_for_expiry(None, t) == t, seen_for_expiry(t, None) == t
    (True, True, True)
    """
    known = [t for t in (site_seen_at, referee_seen_at) if t is not None]
    return min(known) if known else None


#: What ``came_back`` reads of a battle's history, each transition as one of these.
AWAY = "away"  # paused because the referee page was offline
BACK = "back"  # resumed
OTHER = "other"  # anything else: a press, a move, a forfeit, another pause


@dataclass(frozen=True)
class Away:
    """The clock stood still from ``since`` for ``seconds`` while the referee page was away."""

    since: datetime
    seconds: int


def came_back(history: Sequence[tuple[datetime, str]]) -> Away | None:
    """The pause the referee page should tell of, from the battle's latest transitions
    ``(time, AWAY | BACK | OTHER)`` in order: the last two are an ``AWAY`` and the
    ``BACK`` that ended it; else None (nothing to tell, or something happened since).

    >>> from datetime import UTC
    >>> t = datetime(2026, 1, 1, 10, 0, 5, tzinfo=UTC)
    >>> came_back([(t, OTHER), (t, AWAY), (t + timedelta(seconds=7.6), BACK)])
    Away(since=datetime.datetime(2026, 1, 1, 10, 0, 5, tzinfo=datetime.timezone.utc), seconds=8)
    >>> came_back([(t, AWAY), (t, BACK), (t, OTHER)]) is None
    True
    """
    if len(history) < 2:
        return None
    (since, first), (until, second) = history[-2:]
    if (first, second) != (AWAY, BACK):
        return None
    return Away(since=since, seconds=round((until - since).total_seconds()))
