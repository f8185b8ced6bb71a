"""The clock timer: the precise trigger of every expiry, one per clock worker.

Terminology and invariants (DESIGN.md §5, issue 13):
- Every Celery worker that consumes the clock queue runs one *timer* thread in its
  main process (the worker bootstep ``ClockTimer``). The timer sleeps until the
  earliest *due time* (``deadline + grace``) of all running battles, read through the
  (status, deadline) index, then runs the set-based pass ``games.sweep.sweep``, which
  settles every expiry due by then in a constant number of statements, and reads the
  next due time.
- A transition can make a due time earlier than the one a timer sleeps towards (a
  touch, a resume, a start in an idle hall). Every transition therefore publishes its
  due time on the Redis channel ``<prefix>clock:due`` (``wake``); each timer listens
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
from django.conf import settings

log = logging.getLogger(__name__)

#: The longest a timer sleeps when nothing is due sooner (the sweep's own cadence).
IDLE_S = 1.0
#: Between two passes when expiries are still due right after one (rows another
#: transaction held, or more than one pass can take): no busy loop.
BACKLOG_S = 0.005
#: Between two passes when the last one changed nothing although expiries are due
#: (they wait for a web heartbeat newer than their deadline, ``games.outages``).
WAITING_S = 0.02
#: How often a timer looks when it cannot hear the wake-ups (Redis down).
NO_REDIS_S = 0.1
#: After an error (the database restarting): wait, then carry on.
ERROR_S = 0.5
#: Running battles read for the next due time: the grace is per row, so the earliest
#: due time is among the first few deadlines.
LOOKAHEAD = 16


def channel() -> str:
    return f"{settings.THUD_EVENTS_PREFIX}clock:due"


def next_due() -> datetime | None:
    """The earliest due time of a running battle, or None."""
    from .models import Battle

    rows = (
        Battle.objects.filter(status=Battle.Status.RUNNING, deadline__isnull=False)
        .order_by("deadline")
        .values_list("deadline", "grace_ms")[:LOOKAHEAD]
    )
    return min((d + timedelta(milliseconds=g) for d, g in rows), default=None)


def publish_due(pipe, states) -> None:
    """Add to a Redis pipeline the earliest due time of ``states`` (clock states), if any
    clock runs: the wake-up of every timer that sleeps towards a later one."""
    from . import clock

    dues = [clock.due_at(s) for s in states if s.status == clock.RUNNING]
    due = min((d for d in dues if d is not None), default=None)
    if due is not None:
        pipe.publish(channel(), str(int(due.timestamp() * 1000)))


class _Wakeups:
    """The ``clock:due`` subscription; reconnects after Redis comes back."""

    def __init__(self) -> None:
        self._pubsub = None
        self._retry_at = 0.0

    def _connect(self) -> None:
        if time.monotonic() < self._retry_at:
            return
        try:
            client = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=0.5, health_check_interval=10
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(channel())
            self._pubsub = pubsub
        except redis.RedisError:
            self._retry_at = time.monotonic() + IDLE_S

    def _drop(self) -> None:
        with contextlib.suppress(Exception):  # a dead connection: nothing to close
            self._pubsub.close()
        self._pubsub = None
        self._retry_at = time.monotonic() + NO_REDIS_S

    def wait(self, timeout: float) -> float | None:
        """Wait up to ``timeout`` s for wake-ups; the earliest due time heard (epoch s)."""
        if self._pubsub is None:
            self._connect()
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
        from django import db

        wakeups = _Wakeups()
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
        from django import db

        from . import sweep
        from .models import ClockEvent

        try:
            changed = sweep.sweep(via=ClockEvent.Via.TIMER)
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
        from .tasks import clock_queue

        if clock_queue() not in worker.app.amqp.queues.consume_from:
            return
        self.timer = Timer()
        self.thread = threading.Thread(target=self.timer.run, name="clock-timer", daemon=True)
        self.thread.start()
        log.info("clock timer started")

    def stop(self, worker) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.thread.join(timeout=IDLE_S + 1)
