"""Pure tests of games/rules/clock_face.py's ``countdown`` and ``shown_ms``: the hall
screen's clock with no moment in it shows, at every moment, what the snapshot taken at
that moment shows (the think time first, then the time left to move; frozen when stopped)."""

from __future__ import annotations

import doctest
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from games.rules import clock, clock_face
from games.rules.clock import ClockConfig, ClockState

T0 = datetime(2026, 11, 22, 12, 0, 0, tzinfo=UTC)


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def from_snapshot(state: ClockState, now: datetime) -> int | None:
    """What a face showed before: counted down from the snapshot taken at ``now``."""
    snap = clock_face.snapshot(state, now)
    if snap["remaining_ms"] is None:
        return None
    think = snap["think_remaining_ms"] or 0
    return max(0, think if think > 0 else snap["remaining_ms"])


def states(rule: str, touch_at: int | None, pause_at: int | None, resume_at: int) -> ClockState:
    config = ClockConfig(sides=("dwarf", "troll"), commit_rule=rule)
    state = clock.start(ClockState(config=config, max_plies=48), T0)
    if touch_at is not None and rule == "touch":
        state = clock.touch(state, at(touch_at), "F1")
    if pause_at is not None:
        state = clock.pause(state, at(max(pause_at, touch_at or 0)))
        if resume_at:
            state = clock.resume(state, at(max(pause_at, touch_at or 0) + resume_at))
    return state


@given(
    rule=st.sampled_from(["touch", "free"]),
    touch_at=st.none() | st.integers(0, 14_999),
    pause_at=st.none() | st.integers(0, 19_999),
    resume_at=st.integers(0, 60_000),
    now=st.integers(0, 200_000),
)
def test_the_countdown_shows_what_the_snapshot_of_the_moment_shows(
    rule, touch_at, pause_at, resume_at, now
):
    state = states(rule, touch_at, pause_at, resume_at)
    moment = at(now)
    shown = clock_face.shown_ms(clock_face.countdown(state), int(moment.timestamp() * 1000))
    assert shown == from_snapshot(state, moment)


def test_a_paused_clock_is_frozen_whenever_it_is_read():
    paused = clock.pause(clock.start(ClockState(config=ClockConfig(), max_plies=4), T0), at(16_123))
    face = clock_face.countdown(paused)
    assert face["ends_ms"] is None and face["frozen_ms"] == 3_877
    assert clock_face.shown_ms(face, 0) == clock_face.shown_ms(face, 10**13) == 3_877


def test_a_clock_not_started_has_no_time_to_show():
    face = clock_face.countdown(ClockState(config=ClockConfig()))
    assert clock_face.shown_ms(face, 0) is None


def test_the_docstring_examples_hold():
    assert doctest.testmod(clock_face).failed == 0
