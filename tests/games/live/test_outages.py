"""Outages judged from the players' side (games/live/outages.py, issue 20), in the database:
web heartbeats decide whether an expiry forfeits, waits or pauses, and every tick
pauses or resumes the timed battles by them.

The real processes (gunicorn and Redis killed for 30 s during timed battles) are in
``tests/games/live/test_outage_processes.py``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis
from django.contrib.auth import get_user_model
from django.utils import timezone

from front import heartbeat
from games.battles.referee import pause
from games.battles.settle import settle
from games.battles.starting import create_battles, create_casual_battle, start_battle
from games.live import outages, sweep
from games.models.battle import Battle
from games.models.heartbeat import WebHeartbeat, site_seen_at
from games.models.history import ClockEvent, Move
from games.rules import clock
from tests.factories import make_match
from tests.processes import free_port

pytestmark = pytest.mark.django_db


def ms(n: int) -> timedelta:
    return timedelta(milliseconds=n)


def running_otb(n: int = 1, **fields) -> list[Battle]:
    """``n`` running over-the-board battles (think 1 s, move 0.5 s, grace 50 ms)."""
    out = []
    for m in make_match(tables=n, **fields):
        b1, _ = create_battles(m, mode=Battle.Mode.OTB, now=timezone.now())
        out.append(start_battle(b1.pk, now=timezone.now()))
    return out


def seen(at) -> None:
    outages.beat("test-web:1", now=at)


def test_an_expiry_waits_for_a_heartbeat_newer_than_its_deadline():
    (b,) = running_otb()
    now = b.deadline + ms(100)
    seen(b.deadline - ms(50))  # the last web heartbeat came just before the deadline
    assert settle(b.pk, via="read", now=now).ply == 0
    assert sweep.sweep(read_clock=lambda: now) == 0
    assert not Move.objects.filter(battle=b).exists()
    seen(b.deadline + ms(10))  # a web process proved the site up after the deadline
    after = settle(b.pk, via="read", now=now + ms(5))
    assert after.ply == 1 and Move.objects.get(battle=b).kind == Move.Kind.FORFEIT


def test_a_silent_web_tier_pauses_every_timed_battle_then_resumes_it_with_the_turn_replayed():
    quick = running_otb(2, think_ms=15_000, move_ms=5_000, grace_ms=300)
    b = quick[0]
    seen(b.turn_started_at)
    outage_at = b.turn_started_at + ms(3_001)  # not one battle due yet
    assert sweep.sweep(read_clock=lambda: outage_at) == 2
    paused = Battle.objects.filter(pk__in=[q.pk for q in quick])
    assert {(p.status, p.paused_reason, p.paused_remaining_ms) for p in paused} == {
        (clock.PAUSED, clock.REASON_OUTAGE, 20_000)
    }
    assert ClockEvent.objects.filter(kind=clock.OUTAGE_PAUSE, battle__in=paused).count() == 2
    assert (
        sweep.sweep(read_clock=lambda: outage_at + ms(60_000)) == 0
    )  # still down: nothing forfeited
    back = outage_at + ms(30_000)
    seen(back)
    assert sweep.sweep(read_clock=lambda: back + ms(100)) == 2
    resumed = Battle.objects.get(pk=b.pk)
    assert resumed.status == clock.RUNNING and resumed.ply == 0
    assert resumed.deadline == back + ms(100) + ms(20_000)  # a fresh, whole turn
    assert not Move.objects.filter(battle__in=paused).exists()


def test_a_battle_may_be_paused_twice_at_one_turn_by_a_flapping_site():
    (b,) = running_otb()
    start = b.turn_started_at
    for k in range(2):
        t = start + ms(10_000 * k)
        seen(t)
        assert sweep.sweep(read_clock=lambda t=t: t + ms(3_500)) == 1  # paused
        seen(t + ms(4_000))
        assert sweep.sweep(read_clock=lambda t=t: t + ms(4_000)) == 1  # resumed
    assert ClockEvent.objects.filter(battle=b, kind=clock.OUTAGE_PAUSE, ply=0).count() == 2


def test_a_tick_whose_clock_read_came_before_a_pause_does_not_resume_it():
    # CI, stop 51: the timer paused at t (an expiry found late) while the sweep, its
    # clock read at t - 4 ms, waited; the sweep then resumed the turn before its pause.
    (b,) = running_otb()
    paused_at = b.deadline + ms(5_000)  # later than the outage threshold (3 s)
    assert settle(b.pk, via="timer", now=paused_at).status == clock.PAUSED
    assert outages.resume_reachable(via="sweep", now=paused_at - ms(4)) == 0
    assert Battle.objects.get(pk=b.pk).status == clock.PAUSED
    assert outages.resume_reachable(via="sweep", now=paused_at) == 1
    resumed = ClockEvent.objects.get(battle=b, kind=ClockEvent.Kind.RESUMED)
    assert resumed.applied_at == paused_at == Battle.objects.get(pk=b.pk).turn_started_at


def test_a_referees_pause_is_not_resumed_by_the_site_coming_back():
    (b,) = running_otb()
    pause(b.pk, now=b.turn_started_at)
    seen(b.turn_started_at)
    assert sweep.sweep(read_clock=lambda: b.turn_started_at + ms(100)) == 0
    assert Battle.objects.get(pk=b.pk).paused_reason == clock.REASON_REFEREE


def _correspondence(days: int = 2) -> Battle:
    User = get_user_model()
    a, b = (User.objects.create_user(n, password="pw-player-123") for n in ("cora", "cory"))
    return create_casual_battle(
        game="thud",
        first=a,
        second=b,
        timing=Battle.Timing.CORRESPONDENCE,
        days=days,
        now=timezone.now(),
    )


def test_a_short_outage_does_not_pause_a_correspondence_game():
    b = _correspondence()
    start = b.turn_started_at
    seen(start)
    assert (
        sweep.sweep(read_clock=lambda: start + ms(60_000)) == 0
    )  # a minute unseen: not 1/100 of 2 days
    assert Battle.objects.get(pk=b.pk).status == clock.RUNNING
    assert sweep.sweep(read_clock=lambda: start + ms(29 * 60_000)) == 1  # 29 minutes: an outage
    assert Battle.objects.get(pk=b.pk).paused_reason == clock.REASON_OUTAGE


def test_a_correspondence_expiry_found_minutes_late_loses_on_time():
    b = _correspondence()
    ten_minutes_late = clock.due_at(b.clock_state) + ms(600_000)
    seen(ten_minutes_late)
    after = settle(b.pk, via="sweep", now=ten_minutes_late)
    assert (after.status, after.finished_reason) == (clock.FINISHED, clock.REASON_TIME)


def test_with_no_web_heartbeat_ever_nothing_is_judged_an_outage():
    (b,) = running_otb()
    assert site_seen_at() is None
    assert settle(b.pk, via="read", now=b.deadline + ms(100)).ply == 1


def test_a_heartbeat_is_written_only_while_redis_answers(settings):
    me = heartbeat.name()
    heartbeat.beat_once(redis.Redis.from_url(settings.REDIS_URL), me, now=timezone.now())
    first = WebHeartbeat.objects.get(name=me).seen_at
    assert timezone.now() - first < timedelta(seconds=5)
    dead = redis.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=0.2)
    with pytest.raises(redis.ConnectionError):
        heartbeat.beat_once(dead, me, now=timezone.now())
    assert WebHeartbeat.objects.get(name=me).seen_at == first


def test_a_new_web_process_clears_the_heartbeats_of_processes_gone_for_a_day():
    now = timezone.now()
    outages.beat("gone:1", now=now - timedelta(days=2))
    outages.beat("recent:2", now=now - timedelta(hours=1))
    outages.beat("new:3", now=now)
    assert set(WebHeartbeat.objects.values_list("name", flat=True)) == {"recent:2", "new:3"}
    assert site_seen_at() == now
