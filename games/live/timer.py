"""The clock timer: the precise trigger of every expiry, one per clock worker.

Terminology and invariants (DESIGN.md §5, issue 13):
- Every Celery worker that consumes the clock queue runs one *timer* thread in its
  main process (the worker bootstep ``ClockTimer``, named in ``thud_site/celery.py``). The timer sleeps until the
  earliest *due time* (``deadline + grace``) of all running battles, read through the
  (status, deadline) index, then runs the set-based pass ``games.live.sweep.sweep``, which
  settles every expiry due by then in a constant number of statements, and reads the
  next due time.
- A transition can make a due time earlier than the one a timer sleeps towards (a
  touch, a resume, a start in an idle hall). Every transition therefore publishes its
  due time on the Redis channel ``<prefix>clock:due`` (``games.events.publish``); each timer listens
  and wakes earlier when it must. Without Redis a timer wakes at least every
  ``NO_REDIS_S`` to look.
- Timers on several nodes race for the same rows: the pass locks them with
  ``SKIP LOCKED`` and every write is a compare-and-set on ``clock_version``, so an
  expiry is applied once, whichever timer, sweep or page read gets there first.
- It replaces one Celery ETA task per deadline. Measured (bench/mixed.py): the ETA
  task cost about 5 ms of worker CPU per clock transition, which a hall of 1,000
  battles turns into a third of a core and seconds of lateness when the CPU is
  shared. The beat sweep (every second) and settle-on-read stay: they cover a timer
  that died with its node.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from datetime import datetime, timedelta

import redis
from celery import bootsteps
from django import db
from django.conf import settings
from django.utils import timezone

from games.events.publish import due_channel
from games.live import sweep
from games.models.battle import Battle
from games.models.history import ClockEvent

log = logging.getLogger(__name__)

#: The longest a timer sleeps when nothing is due sooner (the sweep's own cadence).
IDLE_S = 1.0
#: Between two passes when expiries are still due right after one (rows another
#: transaction held, or more than one pass can take): no busy loop.
BACKLOG_S = 0.005
#: Between two passes when the last one changed nothing although expiries are due
#: (they wait for a web heartbeat newer than their deadline, ``games.live.outages``).
WAITING_S = 0.02
#: How often a timer looks when it cannot hear the wake-ups (Redis down).
NO_REDIS_S = 0.1
#: After an error (the database restarting): wait, then carry on.
ERROR_S = 0.5
#: The longest a timer waits for Redis to confirm its subscription.
SUBSCRIBE_S = 0.5
#: Running battles read for the next due time: the grace is per row, so the earliest
#: due time is among the first few deadlines.
LOOKAHEAD = 16


def clock_queue() -> str:
    """The Celery queue whose workers run a timer (and the beat sweep's tasks)."""
    return getattr(settings, "THUD_CLOCK_QUEUE", "clock")


def next_due() -> datetime | None:
    """The earliest due time of a running battle, or None."""
    rows = (
        Battle.objects.filter(status=Battle.Status.RUNNING, deadline__isnull=False)
        .order_by("deadline")
        .values_list("deadline", "grace_ms")[:LOOKAHEAD]
    )
    return min((d + timedelta(milliseconds=g) for d, g in rows if d is not None), default=None)


class _Wakeups:
    """The ``clock:due`` subscription; reconnects after Redis comes back."""

    def __init__(self) -> None:
        self._client: redis.Redis | None = None  # held: a dropped client closes its pool,
        self._pubsub: redis.client.PubSub | None = None  # and with it the subscription
        self._retry_at = 0.0

    def connect(self) -> None:
        """Subscribe, and return once Redis has confirmed it: a due time published
        after this is heard (a timer subscribes before its first pass, so nothing
        published between that pass and its first wait is lost)."""
        if self._pubsub is not None or time.monotonic() < self._retry_at:
            return
        try:
            client = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=0.5, health_check_interval=10
            )
            pubsub = client.pubsub()
            pubsub.subscribe(due_channel())
            until = time.monotonic() + SUBSCRIBE_S
            while time.monotonic() < until:
                message = pubsub.get_message(timeout=max(until - time.monotonic(), 0))
                if message is not None and message.get("type") == "subscribe":
                    break
            self._client, self._pubsub = client, pubsub
        except (redis.RedisError, OSError):
            self._retry_at = time.monotonic() + IDLE_S

    def _drop(self) -> None:
        with contextlib.suppress(Exception):  # a dead connection: nothing to close
            if self._pubsub is not None:
                self._pubsub.close()
        with contextlib.suppress(Exception):
            if self._client is not None:
                self._client.close()
        self._client, self._pubsub = None, None
        self._retry_at = time.monotonic() + NO_REDIS_S

    def wait(self, timeout: float) -> float | None:
        """Wait up to ``timeout`` s for wake-ups; the earliest due time heard (epoch s)."""
        self.connect()
        if self._pubsub is None:
            time.sleep(min(timeout, NO_REDIS_S))
            return None
        earliest = None
        try:
            message = self._pubsub.get_message(timeout=timeout)
            while message is not None:
                if message.get("type") == "message":
                    try:
                        due = int(message["data"]) / 1000
                    except (TypeError, ValueError):
                        due = None
                    if due is not None and (earliest is None or due < earliest):
                        earliest = due
                message = self._pubsub.get_message(timeout=0)
        except (redis.RedisError, OSError, ValueError):
            self._drop()
        return earliest

    def close(self) -> None:
        if self._pubsub is not None:
            self._drop()


class Timer:
    """The loop of one timer thread; ``stop()`` ends it within ``IDLE_S``."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self.passes = 0

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> None:
        wakeups = _Wakeups()
        wakeups.connect()  # before the first pass: a due time published after it is heard
        target = time.time()  # a pass at once: whatever fell due while no timer ran
        try:
            while not self._stop.is_set():
                now = time.time()
                if now >= target:
                    target = self._pass()
                    continue
                heard = wakeups.wait(min(target - now, IDLE_S))
                if heard is not None:
                    target = min(target, heard)
        finally:
            wakeups.close()
            db.connections.close_all()

    def _pass(self) -> float:
        """Settle what is due; when to look next (epoch s)."""
        try:
            changed = sweep.sweep(via=ClockEvent.Via.TIMER, read_clock=timezone.now)
            due = next_due()
        except Exception:
            log.exception("clock timer pass failed; trying again")
            db.connections.close_all()  # a broken connection is opened anew next pass
            return time.time() + ERROR_S
        self.passes += 1
        now = time.time()
        if due is None:
            return now + IDLE_S
        if due.timestamp() > now:
            return due.timestamp()
        return now + (BACKLOG_S if changed else WAITING_S)


class ClockTimer(bootsteps.StartStopStep):
    """Worker bootstep: a timer thread in every worker consuming the clock queue.

    It starts after the pool, so the pool's processes are forked before the thread
    exists (a fork copies no thread, but it copies the locks a running thread holds).
    """

    requires = ("celery.worker.components:Pool",)

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.timer: Timer | None = None
        self.thread: threading.Thread | None = None

    def start(self, worker) -> None:
        if clock_queue() not in worker.app.amqp.queues.consume_from:
            return
        self.timer = Timer()
        self.thread = threading.Thread(target=self.timer.run, name="clock-timer", daemon=True)
        self.thread.start()
        log.info("clock timer started")

    def stop(self, worker) -> None:
        if self.timer is not None:
            self.timer.stop()
        if self.thread is not None:
            self.thread.join(timeout=IDLE_S + 1)
