"""What a clock shows at a moment: its phase, and the snapshot a browser counts down from.

Pure functions of ``(state, now)`` over :mod:`games.rules.clock`'s ``ClockState``; the
transitions stay there. ``snapshot`` is the clock part of every event published for a
battle (``games.events.publish``) and of the pages' first render. ``countdown`` is the
clock with no moment in it (the hall screen's, the same for every screen whenever it is
rendered) and ``shown_ms`` what a face shows of it at a moment (``static/js/hall.js``
counts the same).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.rules.clock import (
    NEEDS_REFEREE,
    PAUSED,
    RUNNING,
    ClockState,
    remaining_ms,
    think_remaining_ms,
)


def phase(state: ClockState, now: datetime) -> str:
    """``think`` / ``move`` while running and timed, else the status itself."""
    if state.status != RUNNING:
        return state.status
    if state.deadline is None:
        return "untimed"
    if state.think_ends_at is not None and now < state.think_ends_at:
        return "think"
    return "move"


def snapshot(state: ClockState, now: datetime) -> dict[str, Any]:
    """The clock part of an event: what a browser needs to count down."""
    return {
        "status": state.status,
        "phase": phase(state, now),
        "side": state.side_to_move,
        "ply": state.ply,
        "max_plies": state.max_plies,
        "remaining_ms": remaining_ms(state, now),
        "think_remaining_ms": think_remaining_ms(state, now),
        "touched": state.touched,
        "paused_reason": state.paused_reason,
        "finished_reason": state.finished_reason,
        "server_ms": int(now.timestamp() * 1000),
    }


def _epoch_ms(moment: datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def countdown(state: ClockState) -> dict[str, int | None]:
    """The clock as a screen counts it down, with no moment in it: a running timed clock's
    end of think and end of the turn (``think_ends_ms``, ``ends_ms``: epoch ms), or a
    stopped one's frozen time left (``frozen_ms``, ``frozen_think_ms``; None untimed or
    not started).

    >>> from datetime import UTC
    >>> from games.rules.clock import ClockConfig
    >>> at = datetime(2026, 1, 1, tzinfo=UTC)
    >>> countdown(ClockState(ClockConfig(), status=RUNNING, deadline=at))["ends_ms"]
    1767225600000
    """
    if state.status == RUNNING and state.deadline is not None:
        return {
            "ends_ms": _epoch_ms(state.deadline),
            "think_ends_ms": _epoch_ms(state.think_ends_at),
            "frozen_ms": None,
            "frozen_think_ms": None,
        }
    stopped = state.status in (PAUSED, NEEDS_REFEREE)
    return {
        "ends_ms": None,
        "think_ends_ms": None,
        "frozen_ms": state.paused_remaining_ms if stopped else None,
        "frozen_think_ms": state.paused_think_remaining_ms if stopped else None,
    }


def shown_ms(clock: dict[str, int | None], now_ms: int) -> int | None:
    """The milliseconds a face shows at ``now_ms`` (epoch ms) of a ``countdown``: the think
    time first, then the time left to move (as the battle page counts); a stopped clock's
    frozen time; None untimed. ``static/js/hall.js`` ``tick`` is this in JavaScript.

    >>> shown_ms({"ends_ms": 20_000, "think_ends_ms": 15_000}, 3_000)
    12000
    >>> shown_ms({"ends_ms": 20_000, "think_ends_ms": 15_000}, 16_000)
    4000
    >>> shown_ms({"ends_ms": None, "frozen_ms": 7_000, "frozen_think_ms": 0}, 99_000)
    7000
    """
    ends, think_ends = clock.get("ends_ms"), clock.get("think_ends_ms")
    if ends is None:
        frozen, think = clock.get("frozen_ms"), clock.get("frozen_think_ms") or 0
        return None if frozen is None else max(0, think if think > 0 else frozen)
    think = 0 if think_ends is None else think_ends - now_ms
    return max(0, think if think > 0 else ends - now_ms)
