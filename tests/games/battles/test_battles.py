"""Database tests of games/battles/: compare-and-set transitions with explicit ``now``."""

from __future__ import annotations

import json
import time
import uuid
from datetime import timedelta

import pytest
import redis
import time_machine
from django.utils import timezone

from games import tasks
from games.battles import store
from games.battles.errors import BattleError, NotAllowed, StaleVersion
from games.battles.play import submit_move, touch
from games.battles.referee import give_time, pause, pause_round, referee_decision, resume
from games.battles.settle import settle
from games.battles.starting import create_battles, start_battle
from games.events import publish
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock, clock_face
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def ms(n: int) -> timedelta:
    return timedelta(milliseconds=n)


@pytest.fixture
def t0():
    return timezone.now().replace(microsecond=0)


@pytest.fixture
def otb(match, t0) -> Battle:
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    return start_battle(b1.pk, now=t0)


def test_create_battles_swaps_sides_and_copies_clock_settings(match):
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    assert (b1.first_entry, b1.second_entry) == (match.player_a, match.player_b)
    assert (b2.first_entry, b2.second_entry) == (match.player_b, match.player_a)
    assert (b1.think_ms, b1.move_ms, b1.grace_ms, b1.max_plies) == (1000, 500, 50, 48)
    assert create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())[0].pk == b1.pk


def test_start_runs_the_clock_and_publishes_its_due_time_on_commit(
    match, t0, settings, django_capture_on_commit_callbacks
):
    """The state goes to the battle's channel and its due time (deadline + grace) to the
    timers' channel, on the real Redis, after commit."""
    settings.THUD_EVENTS_PREFIX = f"test-due-{uuid.uuid4().hex[:8]}:"
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(publish.channel(b1.pk), publish.due_channel())
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        b = start_battle(b1.pk, now=t0)
        assert listener.get_message(timeout=0.2) is None  # nothing before commit
    assert callbacks
    assert b.status == Battle.Status.RUNNING and b.clock_version == 1
    assert b.deadline == t0 + ms(1500)
    heard, until = {}, time.monotonic() + 5
    while len(heard) < 2 and time.monotonic() < until:
        # None also for a subscription confirmation: keep reading until both arrived.
        if (message := listener.get_message(timeout=0.5)) is not None:
            heard[message["channel"].decode()] = message["data"].decode()
    listener.close()
    assert json.loads(heard[publish.channel(b.pk)])["version"] == 1
    assert heard[publish.due_channel()] == str(int((t0 + ms(1550)).timestamp() * 1000))


def test_settle_before_due_changes_nothing(otb, t0):
    b = settle(otb.pk, via="read", now=t0 + ms(1549))
    assert b.clock_version == 1 and b.ply == 0


def test_settle_forfeits_once_however_often_called(otb, t0):
    for via in ("timer", "sweep", "read", "nudge"):
        settle(otb.pk, via=via, now=t0 + ms(1600))
    b = Battle.objects.get(pk=otb.pk)
    assert (b.ply, b.side_to_move, b.forfeits_first, b.clock_version) == (1, "troll", 1, 2)
    assert b.turn_started_at == t0 + ms(1600)
    ev = ClockEvent.objects.get(battle=b, kind=clock.TURN_EXPIRED)
    assert (ev.ply, ev.via, ev.due_at, ev.lateness_ms) == (0, "timer", t0 + ms(1550), 50)
    assert Move.objects.get(battle=b).kind == Move.Kind.FORFEIT


def test_a_stale_writer_loses_the_compare_and_set(otb, t0):
    first = Battle.objects.get(pk=otb.pk)
    second = Battle.objects.get(pk=otb.pk)
    assert store.write(first, clock.pause(first.clock_state, t0), now=t0)
    assert not store.write(second, clock.pause(second.clock_state, t0), now=t0)
    assert Battle.objects.get(pk=otb.pk).clock_version == 2


def test_move_with_stale_version_is_refused_and_changes_nothing(otb, t0):
    with pytest.raises(StaleVersion):
        submit_move(otb.pk, side="dwarf", version=0, now=t0 + ms(100))
    assert Battle.objects.get(pk=otb.pk).clock_version == 1
    assert not Move.objects.exists()


def test_move_out_of_turn_is_refused(otb, t0):
    with pytest.raises(NotAllowed):
        submit_move(otb.pk, side="troll", version=1, now=t0 + ms(100))


def test_double_submitted_move_is_applied_once(otb, t0):
    b = submit_move(otb.pk, side="dwarf", version=1, now=t0 + ms(100))
    again = submit_move(otb.pk, side="dwarf", version=1, now=t0 + ms(120))
    assert again.clock_version == b.clock_version == 2
    assert Move.objects.filter(battle=otb).count() == 1
    assert b.side_to_move == "troll" and b.deadline == t0 + ms(1600)


def test_move_after_deadline_and_grace_is_refused_and_expiry_applied_once(otb, t0):
    with pytest.raises(BattleError):
        submit_move(otb.pk, side="dwarf", version=1, now=t0 + ms(1551))
    b = Battle.objects.get(pk=otb.pk)
    assert (b.ply, b.side_to_move) == (1, "troll")
    assert list(Move.objects.filter(battle=b).values_list("kind", flat=True)) == ["forfeit"]
    assert ClockEvent.objects.filter(battle=b, kind=clock.TURN_EXPIRED).count() == 1


def test_move_within_grace_is_accepted(otb, t0):
    b = submit_move(otb.pk, side="dwarf", version=1, now=t0 + ms(1549))
    assert b.ply == 1 and Move.objects.get().kind == Move.Kind.OTB


def test_race_between_move_and_expiry_has_exactly_one_outcome(otb, t0):
    # The expiry and the move both read version 1; whichever writes first wins.
    mover = Battle.objects.get(pk=otb.pk)
    settle(otb.pk, via="timer", now=t0 + ms(1560))
    new = clock.after_move(mover.clock_state, t0 + ms(1540))
    assert not store.write(mover, new, now=t0 + ms(1540))
    assert Battle.objects.get(pk=otb.pk).ply == 1
    assert Move.objects.filter(battle=otb).count() == 1


def test_touch_ends_think_and_shortens_the_deadline(otb, t0):
    b = touch(otb.pk, side="dwarf", version=1, now=t0 + ms(200))
    assert b.touched_square == "*" and b.deadline == t0 + ms(700)
    assert b.clock_version == 2
    # Touching again is a no-op; moving still works within the move phase.
    assert touch(otb.pk, side="dwarf", version=2, now=t0 + ms(300)).clock_version == 2
    assert submit_move(otb.pk, side="dwarf", version=2, now=t0 + ms(600)).ply == 1


def test_pause_and_resume_keep_the_remaining_time(otb, t0):
    pause(otb.pk, now=t0 + ms(1234))
    b = Battle.objects.get(pk=otb.pk)
    assert b.status == Battle.Status.PAUSED and b.paused_remaining_ms == 266
    # No expiry while paused, however long.
    settle(otb.pk, via="sweep", now=t0 + timedelta(hours=1))
    assert Battle.objects.get(pk=otb.pk).ply == 0
    b = resume(otb.pk, now=t0 + ms(60_000))
    assert clock.remaining_ms(b.clock_state, t0 + ms(60_000)) == 266
    assert clock_face.phase(b.clock_state, t0 + ms(60_000)) == "move"


def test_late_expiry_pauses_for_outage_and_resume_replays_the_turn(otb, t0):
    settle(otb.pk, via="sweep", now=t0 + ms(1550 + 3001))
    b = Battle.objects.get(pk=otb.pk)
    assert (b.status, b.paused_reason, b.ply) == ("paused", clock.REASON_OUTAGE, 0)
    assert not Move.objects.exists()
    assert ClockEvent.objects.filter(kind=clock.OUTAGE_PAUSE).count() == 1
    b = resume(otb.pk, now=t0 + ms(10_000))
    assert b.deadline == t0 + ms(11_500)


def test_consecutive_forfeits_wait_for_referee_then_continue(match, t0):
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    b = start_battle(b1.pk, now=t0)
    now = t0
    while b.status == Battle.Status.RUNNING:
        now = b.deadline + ms(b.grace_ms)
        b = settle(b.pk, via="sweep", now=now)
    assert b.status == Battle.Status.NEEDS_REFEREE and b.ply == 5
    settle(b.pk, via="sweep", now=now + timedelta(hours=1))
    assert Battle.objects.get(pk=b.pk).ply == 5
    b = resume(b.pk, now=now + ms(5000))
    assert b.status == Battle.Status.RUNNING and b.forfeits_first == 0


def test_forfeits_to_the_move_limit_finish_the_battle(t0):
    match = make_match(variant="timed24", max_consecutive_forfeits=99, move_unit="ply")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    b = start_battle(b1.pk, now=t0)
    while b.status == Battle.Status.RUNNING:
        b = settle(b.pk, via="sweep", now=b.deadline + ms(b.grace_ms))
    assert b.status == Battle.Status.FINISHED and b.ply == 24
    assert b.finished_reason == clock.REASON_MOVE_LIMIT
    assert ClockEvent.objects.filter(kind=clock.TURN_EXPIRED).count() == 24


def test_give_time_and_referee_decision(otb, t0):
    b = give_time(otb.pk, ms=2000, now=t0 + ms(100))
    assert b.deadline == t0 + ms(3500)
    b = referee_decision(otb.pk, reason="board knocked over", now=t0 + ms(200))
    assert b.status == Battle.Status.FINISHED and b.finished_reason == "referee"
    with pytest.raises(NotAllowed):
        pause(otb.pk, now=t0 + ms(300))


def test_pause_round_pauses_every_running_battle(t0):
    matches = make_match(tables=3)
    for m in matches:
        b1, _ = create_battles(m, mode=Battle.Mode.OTB, now=timezone.now())
        start_battle(b1.pk, now=t0)
    assert pause_round(matches[0].round_id, now=t0 + ms(100)) == 3
    assert set(Battle.objects.filter(number=1).values_list("status", flat=True)) == {"paused"}


def test_sweep_task_settles_every_overdue_battle(t0):
    for m in make_match(tables=4):
        b1, _ = create_battles(m, mode=Battle.Mode.OTB, now=timezone.now())
        start_battle(b1.pk, now=t0)
    with time_machine.travel(t0 + ms(1600), tick=False):
        assert tasks.sweep() == 4
        assert tasks.sweep() == 0
    assert ClockEvent.objects.filter(via="sweep", kind=clock.TURN_EXPIRED).count() == 4
