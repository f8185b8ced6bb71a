"""Pure tests of games/rules/clock.py: numbers in, numbers out, no sleeping."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from games.rules import clock, clock_face
from games.rules.clock import ClockConfig, ClockError, ClockState

T0 = datetime(2026, 11, 22, 12, 0, 0, tzinfo=UTC)


SIDES = ("dwarf", "troll")  # a Thud battle's side keys, in turn order


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def running(**cfg) -> ClockState:
    config = ClockConfig(**({"sides": SIDES} | cfg))
    return clock.start(ClockState(config=config, max_plies=48), T0)


def test_clock_module_imports_nothing_from_django():
    import subprocess
    import sys

    code = "import sys, games.rules.clock; assert 'django' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_turn_has_think_then_move_phase():
    s = running()
    assert clock_face.phase(s, at(0)) == "think"
    assert clock.remaining_ms(s, at(0)) == 20_000
    assert clock.think_remaining_ms(s, at(14_999)) == 1
    assert clock_face.phase(s, at(15_000)) == "move"
    assert clock.remaining_ms(s, at(17_500)) == 2_500
    assert clock.remaining_ms(s, at(25_000)) == 0


def test_expiry_is_due_only_after_grace():
    s = running()
    assert not clock.expiry_due(s, at(20_299))
    assert clock.expiry_due(s, at(20_300))
    assert clock.move_in_time(s, at(20_299))
    assert not clock.move_in_time(s, at(20_300))


def test_expiry_forfeits_turn_and_next_turn_starts_at_settle_time():
    s = running()
    s2, kind = clock.resolve_timeout(s, at(20_400))
    assert kind == clock.TURN_EXPIRED
    assert (s2.ply, s2.side_to_move, s2.forfeits_first) == (1, "troll", 1)
    assert s2.turn_started_at == at(20_400)
    assert s2.deadline == at(40_400)


def test_resolve_timeout_refuses_when_not_due():
    with pytest.raises(ClockError):
        clock.resolve_timeout(running(), at(20_000))


def test_expiry_found_too_late_pauses_for_outage_instead_of_forfeiting():
    s = running()
    s2, kind = clock.resolve_timeout(s, at(20_300 + 3_001))
    assert kind == clock.OUTAGE_PAUSE
    assert s2.status == clock.PAUSED and s2.paused_reason == clock.REASON_OUTAGE
    assert (s2.ply, s2.side_to_move) == (0, "dwarf")
    # The turn is replayed in full on resume.
    s3 = clock.resume(s2, at(60_000))
    assert clock.remaining_ms(s3, at(60_000)) == 20_000
    assert clock_face.phase(s3, at(60_000)) == "think"


def test_expiry_exactly_at_outage_threshold_still_forfeits():
    _, kind = clock.resolve_timeout(running(), at(20_300 + 3_000))
    assert kind == clock.TURN_EXPIRED


def test_third_consecutive_forfeit_by_one_side_waits_for_referee():
    s = running(max_consecutive_forfeits=3)

    for _ in range(5):
        due = clock.due_at(s)
        s, kind = clock.resolve_timeout(s, due)
        assert kind == clock.TURN_EXPIRED
        if s.status != clock.RUNNING:
            break
    # dwarf, troll, dwarf, troll, dwarf: the dwarfs' third forfeit stops the clock.
    assert s.status == clock.NEEDS_REFEREE
    assert s.ply == 5 and s.forfeits_first == 3
    s2 = clock.resume(s, at(200_000))
    assert s2.status == clock.RUNNING and s2.forfeits_first == 0
    assert clock.remaining_ms(s2, at(200_000)) == 20_000


def test_a_move_resets_the_movers_forfeit_count():
    s = running()
    s, _ = clock.resolve_timeout(s, at(20_300))  # dwarf forfeits
    s = clock.after_move(s, at(21_000))  # troll moves
    s = clock.after_move(s, at(22_000))  # dwarf moves
    assert (s.forfeits_first, s.forfeits_second, s.ply) == (0, 0, 3)


def test_move_limit_finishes_the_battle():
    s = replace(running(), max_plies=2)
    s = clock.after_move(s, at(1_000))
    assert s.status == clock.RUNNING
    s = clock.after_move(s, at(2_000))
    assert s.status == clock.FINISHED and s.finished_reason == clock.REASON_MOVE_LIMIT
    assert clock.remaining_ms(s, at(2_000)) is None


def test_forfeits_count_toward_the_move_limit():
    s = replace(running(max_consecutive_forfeits=99), max_plies=3)
    for _ in range(3):
        s, _ = clock.resolve_timeout(s, clock.due_at(s))
    assert s.status == clock.FINISHED and s.ply == 3


def test_move_after_grace_is_too_late():
    with pytest.raises(ClockError):
        clock.after_move(running(), at(20_300))


def test_touch_during_think_ends_think_and_leaves_move_time():
    s = clock.touch(running(), at(4_000), "F1")
    assert s.think_ends_at == at(4_000)
    assert s.deadline == at(9_000)
    assert clock_face.phase(s, at(4_000)) == "move"


def test_touch_late_in_think_never_extends_the_turn():
    s = clock.touch(running(), at(14_000), "F1")
    assert s.deadline == at(19_000)
    s = clock.touch(running(), at(17_000), "F1")  # already in the move phase
    assert s.deadline == at(20_000)


def test_touch_of_a_second_piece_is_refused_and_same_piece_is_a_no_op():
    s = clock.touch(running(), at(1_000), "F1")
    assert clock.touch(s, at(2_000), "F1") is s
    with pytest.raises(ClockError):
        clock.touch(s, at(2_000), "G1")


def test_touch_without_touch_rule_keeps_think():
    s = clock.touch(running(commit_rule="none"), at(1_000), "F1")
    assert s.touched == "F1" and s.deadline == at(20_000)


def test_pause_and_resume_keep_remaining_time_to_the_ms():
    s = running()
    p = clock.pause(s, at(16_123))
    assert clock.remaining_ms(p, at(99_000)) == 3_877
    assert clock.think_remaining_ms(p, at(99_000)) == 0
    assert not clock.expiry_due(p, at(10**9))
    r = clock.resume(p, at(100_000))
    assert clock.remaining_ms(r, at(100_000)) == 3_877
    assert clock_face.phase(r, at(100_000)) == "move"
    assert r.deadline == at(103_877)


def test_pause_in_think_keeps_think_remaining():
    p = clock.pause(running(), at(5_000))
    r = clock.resume(p, at(50_000))
    assert clock.think_remaining_ms(r, at(50_000)) == 10_000
    assert clock.remaining_ms(r, at(50_000)) == 15_000


def test_give_time_extends_running_and_paused_turns():
    s = clock.give_time(running(), at(1_000), 5_000)
    assert s.deadline == at(25_000)
    p = clock.give_time(clock.pause(running(), at(1_000)), at(2_000), 1_000)
    assert p.paused_remaining_ms == 20_000
    with pytest.raises(ClockError):
        clock.give_time(running(), at(1_000), 0)


def test_untimed_battle_never_expires():
    s = clock.start(ClockState(config=ClockConfig(timed=False, sides=SIDES)), T0)
    assert s.deadline is None and not clock.expiry_due(s, at(10**9))
    assert clock_face.phase(s, at(0)) == "untimed"
    assert clock.after_move(s, at(10**9)).ply == 1


def test_snapshot_carries_remaining_and_phase():
    snap = clock_face.snapshot(running(), at(15_500))
    assert snap["phase"] == "move" and snap["remaining_ms"] == 4_500
    assert snap["think_remaining_ms"] == 0 and snap["side"] == "dwarf"


# --- outages judged from the players' side (issue 20) --------------------------------


def test_an_expiry_waits_while_the_site_was_not_seen_up_after_the_deadline():
    s = running()
    same, kind = clock.resolve_timeout(s, at(20_400), site_seen_at=at(19_900))
    assert (kind, same) == (clock.EXPIRY_WAITS, s)


def test_an_expiry_forfeits_once_the_site_was_seen_up_at_the_deadline():
    s = running()
    s2, kind = clock.resolve_timeout(s, at(20_400), site_seen_at=at(20_000))
    assert kind == clock.TURN_EXPIRED and s2.ply == 1


def test_a_site_unseen_beyond_the_threshold_pauses_and_replays_the_turn():
    s = clock.touch(running(), at(2_000), "F1")
    s2, kind = clock.resolve_timeout(s, at(10_001), site_seen_at=at(4_000))
    assert kind == clock.OUTAGE_PAUSE
    assert (s2.status, s2.paused_reason, s2.touched) == (clock.PAUSED, clock.REASON_OUTAGE, "")
    assert (s2.paused_remaining_ms, s2.paused_think_remaining_ms) == (20_000, 15_000)
    resumed = clock.resume(s2, at(60_000))
    assert resumed.deadline == at(80_000) and resumed.ply == 0


def test_a_site_unseen_for_exactly_the_threshold_is_not_yet_an_outage():
    s = running()
    assert not clock.site_down(s, at(23_000), at(20_000))
    assert clock.site_down(s, at(23_001), at(20_000))
    assert not clock.site_down(s, at(99_999), None)  # no web process ever seen: unknown


def test_the_outage_threshold_of_a_correspondence_turn_is_a_hundredth_of_it():
    two_days = 2 * 86_400_000
    config = ClockConfig(think_ms=two_days, move_ms=0, timeout_rule=clock.LOSE_GAME)
    assert clock.outage_threshold_ms(config) == two_days // 100  # 28.8 minutes
    assert clock.outage_threshold_ms(ClockConfig()) == 3_000


def test_a_correspondence_expiry_found_minutes_late_still_loses_on_time():
    two_days = 2 * 86_400_000
    s = running(think_ms=two_days, move_ms=0, timeout_rule=clock.LOSE_GAME)
    ten_minutes_late = at(two_days + 300 + 600_000)
    s2, kind = clock.resolve_timeout(s, ten_minutes_late, site_seen_at=ten_minutes_late)
    assert kind == clock.GAME_LOST_ON_TIME and s2.finished_reason == clock.REASON_TIME


def test_a_correspondence_outage_gives_back_the_time_since_the_site_was_last_seen():
    two_days = 2 * 86_400_000
    s = running(think_ms=two_days, move_ms=0, timeout_rule=clock.LOSE_GAME)
    seen = at(two_days - 3_600_000)  # last seen an hour before the deadline
    s2, kind = clock.resolve_timeout(s, at(two_days + 7_200_000), site_seen_at=seen)
    assert kind == clock.OUTAGE_PAUSE
    assert s2.paused_remaining_ms == 3_600_000
    late = clock.outage_pause(s, site_seen_at=at(two_days))  # seen at the deadline itself
    assert late.paused_remaining_ms == two_days // 100  # never resumed onto an expiry
