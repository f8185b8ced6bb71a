"""The round timer (pure): how long a round has left, started by the organiser.

The organiser gives the round a length in minutes and starts it; the hall screen, the
players' and the referees' pages show what is left, with a warning in the last
``WARNING_S`` seconds; at zero it says the time is up (it decides nothing: results are
still entered as usual). Nothing here reads a clock: ``now`` is an argument.

>>> from datetime import UTC, datetime, timedelta
>>> t0 = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
>>> status(t0, 45, t0 + timedelta(minutes=41))
TimerStatus(remaining_s=240, ends_at=datetime.datetime(2026, 1, 1, 10, 45, tzinfo=datetime.timezone.utc), warning=True, over=False)
>>> status(t0, 45, t0 + timedelta(minutes=50)).remaining_s
0
>>> status(None, 45, t0) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

#: The warning: the last five minutes of a round.
WARNING_S = 5 * 60
#: The longest round timer an organiser may set (a whole day's session).
MAX_MINUTES = 600


@dataclass(frozen=True)
class TimerStatus:
    remaining_s: int
    ends_at: datetime
    warning: bool
    over: bool


def ends_at(started_at: datetime, minutes: int) -> datetime:
    return started_at + timedelta(minutes=minutes)


def status(started_at: datetime | None, minutes: int | None, now: datetime) -> TimerStatus | None:
    """The timer as of ``now``; ``None`` if it was never started."""
    if started_at is None or not minutes:
        return None
    ends = ends_at(started_at, minutes)
    remaining = max(0, int((ends - now).total_seconds() + 0.999))
    return TimerStatus(
        remaining_s=remaining,
        ends_at=ends,
        warning=0 < remaining <= WARNING_S,
        over=remaining == 0,
    )


def next_change_s(timer: TimerStatus | None, now: datetime) -> float | None:
    """Seconds from ``now`` until the timer is shown otherwise than by a tick of its
    count (the warning begins, the time is up); None if that never comes.

    >>> from datetime import UTC, datetime, timedelta
    >>> t0 = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
    >>> next_change_s(status(t0, 45, t0), t0)
    2400.0
    >>> next_change_s(status(t0, 45, t0 + timedelta(minutes=41)), t0 + timedelta(minutes=41))
    240.0
    >>> next_change_s(status(t0, 45, t0 + timedelta(hours=1)), t0) is None
    True
    """
    if timer is None or timer.over:
        return None
    at = timer.ends_at if timer.warning else timer.ends_at - timedelta(seconds=WARNING_S)
    return max(0.0, (at - now).total_seconds())
