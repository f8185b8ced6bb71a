"""Publishing battle states and due times on Redis, after commit.

- ``publish_state`` (called on commit by every clock transition, with the transition's
  time) publishes one JSON
  object on channel ``battle:<id>``: version, status, phase, side, ply,
  ``remaining_ms``, ``think_remaining_ms``, ``server_ms``; in the same pipeline, the
  new due time on ``clock:due`` (``publish_due``), which wakes the clock timers
  (``games.live.timer``). A failed publish is only logged: every SSE connection starts
  with a snapshot read from the database (``games.live.stream``), and a client that
  misses an event resyncs on the next one (its version jumps).
- ``publish_states`` does the same for many battles at once (the bulk writes of
  ``games.live.bulk``), in one pipeline.
- ``publish_notices`` publishes notices to users on ``user:<id>`` (a battle waits for them).
- ``publish_tournament_event`` publishes a tournament's events on ``tournament:<id>``
  (``{"event": "checkin"}`` when someone checks in: the desk pages refetch their list).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import redis
from django.conf import settings

from games.rules import clock, clock_face

log = logging.getLogger(__name__)

_publisher: redis.Redis | None = None


def channel(battle_id: int) -> str:
    return f"{settings.THUD_EVENTS_PREFIX}battle:{battle_id}"


def due_channel() -> str:
    """The channel of the due times, which every clock timer listens to."""
    return f"{settings.THUD_EVENTS_PREFIX}clock:due"


def payload(
    battle_id: int,
    version: int,
    state: clock.ClockState,
    *,
    now: datetime,
    offer: str = "",
) -> dict[str, Any]:
    """The event of one battle's state as of ``now``."""
    snap = clock_face.snapshot(state, now)
    return {"battle": battle_id, "version": version, "offer": offer, **snap}


def publish_state(
    battle_id: int, version: int, state: clock.ClockState, offer: str = "", *, now: datetime
) -> None:
    publish_states([(battle_id, version, state, offer)], now=now)


def publish_due(pipe: Any, states: Iterable[clock.ClockState]) -> None:
    """Add to a Redis pipeline the earliest due time of ``states`` (clock states), if any
    clock runs: the wake-up of every timer that sleeps towards a later one."""
    dues = [clock.due_at(s) for s in states if s.status == clock.RUNNING]
    due = min((d for d in dues if d is not None), default=None)
    if due is not None:
        pipe.publish(due_channel(), str(int(due.timestamp() * 1000)))


def publish_states(
    items: Iterable[tuple[int, int, clock.ClockState, str]], *, now: datetime
) -> None:
    """The states of one battle (``publish_state``) or many (the bulk sweeper), and the
    earliest of their due times, in one Redis pipeline.

    ``items`` yields ``(battle_id, version, state, offer)``; ``now`` is the time of the
    transitions, which the states' remaining times are computed at.
    """
    global _publisher
    try:
        if _publisher is None:
            _publisher = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5
            )
        states = []
        with _publisher.pipeline(transaction=False) as pipe:
            for battle_id, version, state, offer in items:
                data = payload(battle_id, version, state, now=now, offer=offer)
                pipe.publish(channel(battle_id), json.dumps(data))
                states.append(state)
            publish_due(pipe, states)
            pipe.execute()
    except redis.RedisError:
        log.warning("could not publish battle states", exc_info=True)


def user_channel(user_id: int) -> str:
    """The channel of one user's notices (a battle waiting for them), read by every page
    they have open (``games.live.stream.user_stream``)."""
    return f"{settings.THUD_EVENTS_PREFIX}user:{user_id}"


#: A user's latest notices are kept this long, at most this many, for a stream that opens
#: just after them: a bot accepts a challenge in milliseconds, while the challenger's page
#: is still loading after its POST and not listening yet.
RECENT_NOTICES_S = 60
RECENT_NOTICES_MAX = 10


def recent_notices_key(user_id: int) -> str:
    return f"{settings.THUD_EVENTS_PREFIX}recent-notices:{user_id}"


def publish_notices(notices: Iterable[tuple[int, dict[str, Any]]]) -> None:
    """Publish ``(user_id, notice)`` pairs, after commit, and keep each among its user's
    recent ones (``recent_notices``), stamped with the time it was published (``at``,
    epoch ms). Like the states, a lost notice is only logged: the home page and "Your
    games" list the battle all the same."""
    global _publisher
    at = int(time.time() * 1000)
    try:
        if _publisher is None:
            _publisher = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5
            )
        with _publisher.pipeline(transaction=False) as pipe:
            for user_id, notice in notices:
                pipe.publish(user_channel(user_id), json.dumps(notice))
                kept = recent_notices_key(user_id)
                pipe.lpush(kept, json.dumps(notice | {"at": at}))
                pipe.ltrim(kept, 0, RECENT_NOTICES_MAX - 1)
                pipe.expire(kept, RECENT_NOTICES_S)
            pipe.execute()
    except redis.RedisError:
        log.warning("could not publish user notices", exc_info=True)


def recent_notices(user_id: int) -> list[dict[str, Any]]:
    """The user's notices of the last ``RECENT_NOTICES_S``, oldest first, each with the
    time it was published (``at``); none when Redis cannot say."""
    global _publisher
    try:
        if _publisher is None:
            _publisher = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5
            )
        kept = _publisher.lrange(recent_notices_key(user_id), 0, -1)
    except redis.RedisError:
        log.warning("could not read recent user notices", exc_info=True)
        return []
    return [json.loads(text) for text in reversed(kept)]


def tournament_channel(tournament_id: int) -> str:
    """The channel of one tournament's events, read by its desk pages
    (``games.live.stream.tournament_stream``)."""
    return f"{settings.THUD_EVENTS_PREFIX}tournament:{tournament_id}"


def publish_tournament_event(tournament_id: int, event: str) -> None:
    """Publish ``{"event": event}`` on the tournament's channel. A lost event is only
    logged: the pages it would refresh show the right list on their next load."""
    global _publisher
    try:
        if _publisher is None:
            _publisher = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5
            )
        _publisher.publish(tournament_channel(tournament_id), json.dumps({"event": event}))
    except redis.RedisError:
        log.warning("could not publish a tournament event", exc_info=True)


def on_attendance_changed(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    """Receiver of ``tournaments.events.signals.attendance_changed`` (sent after commit)."""
    publish_tournament_event(tournament_id, "checkin")
