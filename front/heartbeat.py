"""The web process's heartbeat: proof, every ``HEARTBEAT_S``, that players can reach
the site through this process (``games.live.outages`` decides what its absence means).

Import it once Django is set up (it imports models). A daemon thread, started when the
WSGI or ASGI application is loaded (one per gunicorn
worker, one per uvicorn), pings Redis and then writes this process's ``WebHeartbeat``
row. If either fails, no heartbeat is written: a web tier that cannot reach the
database, or whose live updates and sessions' accelerator are gone, is an outage for
the players, and their clocks must not run. ``THUD_WEB_HEARTBEAT=0`` turns it off for
a process that serves no pages (the Procfile's ``events`` process).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from datetime import datetime

import redis
from django import db
from django.conf import settings

from games.live import outages

log = logging.getLogger(__name__)

_started = threading.Lock()
_thread: threading.Thread | None = None


def name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def start(*, read_clock: Callable[[], datetime]) -> threading.Thread | None:
    """Start this process's heartbeat thread once (a no-op when turned off); it stamps
    each heartbeat with the time ``read_clock`` (the wall clock) gives."""
    global _thread
    if not settings.THUD_WEB_HEARTBEAT:
        return None
    with _started:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(
                target=_run, args=(read_clock,), name="web-heartbeat", daemon=True
            )
            _thread.start()
    return _thread


def beat_once(client: redis.Redis, me: str, *, now: datetime) -> None:
    """One heartbeat at ``now``: Redis answers, then the row is written; raises if either
    fails. The caller reads the time first: the heartbeat never claims a moment after
    Redis answered."""
    client.ping()
    outages.beat(me, now=now)


def _run(read_clock: Callable[[], datetime]) -> None:
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.25
    )
    me, failing = name(), False
    while True:
        started = time.monotonic()
        try:
            beat_once(client, me, now=read_clock())
            if failing:
                log.warning("web heartbeat: the database and Redis answer again")
            failing = False
        except Exception as exc:  # Redis or the database is unreachable: no heartbeat
            if not failing:
                log.warning("web heartbeat stopped: %s", exc)
            failing = True
            db.connection.close()
        time.sleep(max(0.0, outages.HEARTBEAT_S - (time.monotonic() - started)))
