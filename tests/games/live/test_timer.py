"""The clock timer (games/live/timer.py): a pass settles what is due and says when to look
again; transitions publish their due time; a sleeping timer wakes when it hears an
earlier one. The timer inside a real Celery worker is exercised by
test_clock_integration.py."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
import redis
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.events import publish
from games.live import timer
from games.models.battle import Battle
from games.models.heartbeat import WebHeartbeat
from games.models.history import ClockEvent
from games.rules import clock
from tests.factories import make_match
from tests.games.live.test_sweep import ms, recording, running_battles, running_battles_due

pytestmark = pytest.mark.django_db


def test_a_timer_pass_settles_every_due_expiry_and_then_waits_for_the_next(monkeypatch):
    recording(monkeypatch)
    ids = running_battles_due(3, late_ms=10)
    (later,) = running_battles(1, timezone.now())
    Battle.objects.filter(pk=later).update(deadline=timezone.now() + ms(4000))
    before = time.time()
    look_again = timer.Timer()._pass()
    assert set(Battle.objects.filter(pk__in=ids).values_list("ply", "clock_version")) == {(1, 2)}
    assert set(ClockEvent.objects.filter(battle_id__in=ids).values_list("via", flat=True)) == {
        ClockEvent.Via.TIMER
    }
    # The next due time: the untouched battle's deadline + its 300 ms grace.
    due = Battle.objects.get(pk=later).deadline + ms(300)
    assert look_again == pytest.approx(due.timestamp(), abs=0.001)
    assert Battle.objects.get(pk=later).ply == 0 and look_again > before + 4


def test_a_timer_pass_with_nothing_running_looks_again_after_the_idle_time(monkeypatch):
    recording(monkeypatch)
    before = time.time()
    assert before + timer.IDLE_S <= timer.Timer()._pass() <= time.time() + timer.IDLE_S


def test_the_next_due_time_counts_each_battles_own_grace():
    now = timezone.now()
    first, second = running_battles(2, now)
    Battle.objects.filter(pk=first).update(deadline=now, grace_ms=900)
    Battle.objects.filter(pk=second).update(deadline=now + ms(100), grace_ms=50)
    assert timer.next_due() == now + ms(150)
    Battle.objects.filter(pk=second).update(status=clock.PAUSED)
    assert timer.next_due() == now + ms(900)
    Battle.objects.filter(pk=first).update(status=clock.FINISHED)
    assert timer.next_due() is None


def test_only_running_clocks_publish_a_due_time_and_the_earliest_wins(settings):
    settings.THUD_EVENTS_PREFIX = f"test-due-{uuid.uuid4().hex[:8]}:"
    now = timezone.now()
    cfg = clock.ClockConfig(think_ms=1000, move_ms=500, grace_ms=50)
    soon = clock.start(clock.ClockState(config=cfg), now)
    late = clock.start(clock.ClockState(config=cfg), now + ms(700))
    paused = clock.pause(soon, now)
    client = redis.Redis.from_url(settings.REDIS_URL)
    listener = client.pubsub(ignore_subscribe_messages=True)
    listener.subscribe(publish.due_channel())

    def published(states) -> list[bytes]:
        with client.pipeline(transaction=False) as pipe:
            publish.publish_due(pipe, states)
            pipe.execute()
        heard, until = [], time.monotonic() + 0.5
        while time.monotonic() < until:
            if (message := listener.get_message(timeout=0.1)) is not None:
                heard.append(message["data"])
        return heard

    assert published([late, paused, soon]) == [
        str(int((now + ms(1550)).timestamp() * 1000)).encode()
    ]
    assert published([paused, clock.finish(late, clock.REASON_MOVE_LIMIT)]) == []
    listener.close()


def test_a_timer_pass_settles_an_online_battle_through_settle(monkeypatch):
    recording(monkeypatch)
    now = timezone.now()
    (battle_id,) = running_battles(1, now)
    from games import thud

    board = thud.Position.initial().to_diagram()
    Battle.objects.filter(pk=battle_id).update(mode=Battle.Mode.ONLINE, board=board)
    timer.Timer()._pass()
    b = Battle.objects.get(pk=battle_id)
    assert (b.ply, b.side_to_move, b.clock_version) == (1, "troll", 2)
    assert b.board != board  # the engine passed the turn on the board


@pytest.mark.django_db(transaction=True)
def test_a_sleeping_timer_wakes_for_an_earlier_due_time_it_hears(monkeypatch, settings):
    """The timer sleeps towards nothing (an idle hall, here 60 s); a battle started
    meanwhile publishes its due time and the timer settles it then, not a minute later."""
    settings.THUD_EVENTS_PREFIX = f"test-wake-{uuid.uuid4().hex[:8]}:"
    monkeypatch.setattr(timer, "IDLE_S", 60.0)
    # No web heartbeat left by an earlier test's processes: an old one would hold the
    # expiry for a site judged down (games.live.outages), which this test is not about.
    WebHeartbeat.objects.all().delete()
    (m,) = make_match(tables=1, users=False, variant="timed24")
    b1, _ = create_battles(m, mode=Battle.Mode.OTB, now=timezone.now())
    loop = timer.Timer()
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    try:
        until = time.monotonic() + 10
        while loop.passes < 1 and time.monotonic() < until:  # its first pass: nothing due
            time.sleep(0.01)
        assert loop.passes == 1
        started = start_battle(b1.pk, now=timezone.now())  # think 1 s + move 0.5 s + grace 50 ms
        due = started.deadline + ms(started.grace_ms)
        until = time.monotonic() + 10
        while not ClockEvent.objects.filter(battle=b1, kind=clock.TURN_EXPIRED).exists():
            assert time.monotonic() < until, "the timer did not wake"
            time.sleep(0.02)
    finally:
        loop.stop()
        redis.Redis.from_url(settings.REDIS_URL).publish(publish.due_channel(), "0")  # wake to stop
        thread.join(timeout=5)
    event = ClockEvent.objects.get(battle=b1, kind=clock.TURN_EXPIRED)
    assert event.via == ClockEvent.Via.TIMER and event.due_at == due
    assert 0 <= (event.applied_at - due).total_seconds() < 5
    assert not thread.is_alive()


@pytest.mark.django_db(transaction=True)
def test_a_timer_listens_before_its_first_pass(monkeypatch, settings):
    """A due time published between the first pass and the first wait is heard: Redis
    has confirmed the subscription before the pass reads the battles."""
    settings.THUD_EVENTS_PREFIX = f"test-listen-{uuid.uuid4().hex[:8]}:"
    client = redis.Redis.from_url(settings.REDIS_URL)
    listeners = []
    real_sweep = timer.sweep.sweep

    def counting_sweep(**kwargs):
        listeners.append(client.pubsub_numsub(publish.due_channel())[0][1])
        return real_sweep(**kwargs)

    monkeypatch.setattr(timer.sweep, "sweep", counting_sweep)
    loop = timer.Timer()
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    try:
        until = time.monotonic() + 10
        while loop.passes < 1 and time.monotonic() < until:
            time.sleep(0.01)
    finally:
        loop.stop()
        client.publish(publish.due_channel(), "0")
        thread.join(timeout=5)
    assert listeners[0] == 1


def test_without_redis_a_timer_looks_again_within_a_tenth_of_a_second(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    wakeups = timer._Wakeups()
    t = time.monotonic()
    assert wakeups.wait(30.0) is None
    assert time.monotonic() - t < 5  # not the 30 s asked: it cannot hear, so it looks


def test_a_timer_ignores_what_is_not_a_due_time_on_its_channel(settings):
    """Anything else published on ``clock:due`` is skipped; a due time beside it counts."""
    settings.THUD_EVENTS_PREFIX = f"test-junk-{uuid.uuid4().hex[:8]}:"
    wakeups = timer._Wakeups()
    assert wakeups.wait(0.2) is None  # subscribes; nothing heard yet
    client = redis.Redis.from_url(settings.REDIS_URL)
    for message in ("soon", "", "1795487198.5", "1795487198929", "{}"):
        client.publish(publish.due_channel(), message)
    heard, until = None, time.monotonic() + 5
    while heard is None and time.monotonic() < until:
        heard = wakeups.wait(0.5)
    wakeups.close()
    assert heard == 1795487198.929
