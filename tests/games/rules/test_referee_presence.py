"""The pure rules of the referee page's presence (no database): when the page is offline,
and until when an over-the-board expiry knows both the site and the page were there."""

from __future__ import annotations

import doctest
import subprocess
import sys
from datetime import UTC, datetime, timedelta

from games.rules import clock, referee_presence
from games.rules.referee_presence import THRESHOLD_MS, offline, offline_before, seen_for_expiry

T0 = datetime(2026, 11, 25, 1, 0, tzinfo=UTC)


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def test_doctests_pass():
    assert doctest.testmod(referee_presence).failed == 0


def test_the_module_imports_nothing_from_django():
    code = "import sys, games.rules.referee_presence; assert 'django' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_page_is_online_up_to_the_threshold_and_offline_just_after():
    assert not offline(T0, at(THRESHOLD_MS))
    assert offline(T0, at(THRESHOLD_MS + 1))


def test_a_page_never_seen_is_never_offline():
    assert not offline(None, at(10 * THRESHOLD_MS))


def test_the_cut_off_is_the_threshold_before_now():
    assert offline_before(at(5_000)) == at(5_000 - THRESHOLD_MS)


def test_an_expiry_knows_the_earlier_of_the_site_and_the_page():
    assert seen_for_expiry(at(100), at(900)) == at(100)
    assert seen_for_expiry(at(900), at(100)) == at(100)
    assert seen_for_expiry(None, at(100)) == at(100)
    assert seen_for_expiry(at(100), None) == at(100)
    assert seen_for_expiry(None, None) is None


def test_an_expiry_waits_for_a_page_beat_after_its_deadline():
    state = clock.start(clock.ClockState(config=clock.ClockConfig()), T0)
    due = clock.due_at(state)
    assert state.deadline is not None and due is not None
    page_before = seen_for_expiry(due, state.deadline - timedelta(milliseconds=10))
    assert clock.resolve_timeout(state, due, page_before)[1] == clock.EXPIRY_WAITS
    page_after = seen_for_expiry(due, state.deadline + timedelta(milliseconds=10))
    assert clock.resolve_timeout(state, due, page_after)[1] == clock.TURN_EXPIRED


def test_the_referee_offline_pause_replays_the_turn_with_its_own_reason():
    state = clock.start(clock.ClockState(config=clock.ClockConfig()), T0)
    paused = clock.outage_pause(state, at(1_000), clock.REASON_REFEREE_OFFLINE)
    assert paused.status == clock.PAUSED
    assert paused.paused_reason == clock.REASON_REFEREE_OFFLINE
    assert paused.paused_remaining_ms == state.config.turn_ms
    resumed = clock.resume(paused, at(60_000))
    assert resumed.deadline == at(60_000 + state.config.turn_ms) and resumed.ply == 0
