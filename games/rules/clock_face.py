"""What a clock shows at a moment: its phase, and the snapshot a browser counts down from.

Pure functions of ``(state, now)`` over :mod:`games.rules.clock`'s ``ClockState``; the
transitions stay there. ``snapshot`` is the clock part of every event published for a
battle (``games.events.publish``) and of the pages' first render.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.rules.clock import RUNNING, ClockState, remaining_ms, think_remaining_ms


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
