"""Live battle state over Server-Sent Events, fed by Redis pub/sub.

- ``publish_state`` (called on commit by every clock transition) publishes one JSON
  object on channel ``battle:<id>``: version, status, phase, side, ply,
  ``remaining_ms``, ``think_remaining_ms``, ``server_ms``; in the same pipeline, the
  new due time on ``clock:due`` for the clock timers (``games.timer``). A failed publish is only
  logged: every connection starts with a snapshot read from the database, and a
  client that misses an event resyncs on the next one (its version jumps).
- Each server process holds ONE ``PSUBSCRIBE battle:*`` (``_Hub``) and fans the
  messages out to a bounded ``asyncio.Queue`` per SSE connection. A slow client
  whose queue overflows gets a fresh snapshot instead of the backlog.
- The stream sends ``event: state`` messages and ``: keepalive`` comments. While the
  subscription is down (Redis unreachable), each stream reads its battle every
  ``POLL_S`` and sends what changed: the clients see every move without Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from datetime import datetime

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django import db
from django.conf import settings
from django.utils import timezone

from . import clock, timer

log = logging.getLogger(__name__)

QUEUE_SIZE = 16
KEEPALIVE_S = 15.0
#: While Redis is down (no published states), how often a stream reads the battle.
POLL_S = 2.0
SNAPSHOT_CONCURRENCY = 4
SUBSCRIBE_WAIT_S = 2.0
RESYNC = object()  # queue marker: send a fresh snapshot

_publisher: redis.Redis | None = None


def channel(battle_id: int) -> str:
    return f"{settings.THUD_EVENTS_PREFIX}battle:{battle_id}"


def payload(
    battle_id: int,
    version: int,
    state: clock.ClockState,
    now: datetime | None = None,
    offer: str = "",
) -> dict:
    snap = clock.snapshot(state, now or timezone.now())
    return {"battle": battle_id, "version": version, "offer": offer, **snap}


def publish_state(battle_id: int, version: int, state: clock.ClockState, offer: str = "") -> None:
    publish_states([(battle_id, version, state, offer)])


def snapshot(battle_id: int) -> dict:
    """Settle on read, then the battle's current state as an event payload."""
    from .battles import settle
    from .models import ClockEvent

    battle = settle(battle_id, via=ClockEvent.Via.READ)
    data = payload(battle.pk, battle.clock_version, battle.clock_state, offer=battle.end_offered_by)
    return data | {"snapshot": True}


def snapshot_and_close(battle_id: int) -> dict:
    """``snapshot`` for a streaming response: don't hold a database connection while
    the stream stays open (one per connection would exhaust the server's slots)."""
    try:
        return snapshot(battle_id)
    finally:
        db.connection.close()


def check_and_close(check, *args):
    try:
        return check(*args)
    finally:
        db.connection.close()


_snapshot_slots: asyncio.Semaphore | None = None


async def _snapshot(battle_id: int) -> dict:
    # Bound the concurrent snapshot reads of this process (a reconnect storm after a
    # restart would otherwise open one database connection per client at once).
    global _snapshot_slots
    if _snapshot_slots is None:
        _snapshot_slots = asyncio.Semaphore(SNAPSHOT_CONCURRENCY)
    async with _snapshot_slots:
        return await sync_to_async(snapshot_and_close, thread_sensitive=False)(battle_id)


def format_sse(data: dict, event: str = "state") -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


class _Hub:
    """One pattern subscription per process, fanned out to per-connection queues."""

    def __init__(self) -> None:
        self.queues: dict[int, set[asyncio.Queue]] = {}
        self.task: asyncio.Task | None = None
        self.ready: asyncio.Event | None = None  # set while the subscription is live

    @property
    def live(self) -> bool:
        """True while the Redis subscription is confirmed (states arrive as published)."""
        return self.ready is not None and self.ready.is_set()

    def register(self, battle_id: int) -> asyncio.Queue:
        if self.task is None or self.task.done():
            self.ready = asyncio.Event()
            self.task = asyncio.get_running_loop().create_task(self._run())
        queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_SIZE)
        self.queues.setdefault(battle_id, set()).add(queue)
        return queue

    def unregister(self, battle_id: int, queue: asyncio.Queue) -> None:
        queues = self.queues.get(battle_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.queues[battle_id]

    async def wait_ready(self, timeout: float = SUBSCRIBE_WAIT_S) -> None:
        """Wait until Redis has confirmed the subscription, so that a snapshot read
        afterwards misses no later event. If Redis is down, go on after ``timeout``:
        the snapshot is still right, and the resync after reconnecting covers the gap."""
        if self.ready is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ready.wait(), timeout)

    def _deliver(self, queue: asyncio.Queue, item) -> None:
        try:
            queue.put_nowait(item)
        except asyncio.QueueFull:
            # Drop the backlog; the connection sends a fresh snapshot instead.
            while not queue.empty():
                queue.get_nowait()
            queue.put_nowait(RESYNC)

    def _broadcast_resync(self) -> None:
        for queues in self.queues.values():
            for queue in queues:
                self._deliver(queue, RESYNC)

    async def _run(self) -> None:
        pattern = f"{settings.THUD_EVENTS_PREFIX}battle:*"
        prefix_len = len(pattern) - 1
        backoff = 0.2
        first = True
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(pattern)
                    async for message in pubsub.listen():
                        if message.get("type") == "psubscribe":  # Redis confirmed it
                            if not first:
                                self._broadcast_resync()  # we may have missed messages
                            first, backoff = False, 0.2
                            self.ready.set()
                            continue
                        if message.get("type") != "pmessage":
                            continue
                        try:
                            battle_id = int(message["channel"][prefix_len:])
                            queues = tuple(self.queues.get(battle_id, ()))
                            # Every battle's states arrive here: read only the watched.
                            data = json.loads(message["data"]) if queues else None
                        except (ValueError, TypeError):
                            continue
                        for queue in queues:
                            self._deliver(queue, data)
            except asyncio.CancelledError:
                raise
            except Exception:
                self.ready.clear()
                log.warning("battle event subscription lost; reconnecting", exc_info=True)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()


hub = _Hub()


async def stream(battle_id: int):
    """The SSE body: a snapshot, then every published state, with keepalives."""
    queue = hub.register(battle_id)
    try:
        await hub.wait_ready()  # a snapshot read before the subscription could miss an event
        version = -1
        item = RESYNC
        while True:
            if item is RESYNC:
                data = await _snapshot(battle_id)
                version = data["version"]
                yield format_sse(data)
            elif isinstance(item, dict) and item.get("version", 0) >= version:
                version = item["version"]
                yield format_sse(item)
            live = hub.live
            try:
                item = await asyncio.wait_for(queue.get(), timeout=KEEPALIVE_S if live else POLL_S)
            except TimeoutError:
                if live:
                    item = None
                    yield b": keepalive\n\n"
                    continue
                # No Redis: nobody publishes, so the stream polls the database itself
                # and sends what changed; the resync after reconnecting covers the rest.
                data = await _snapshot(battle_id)
                item = data if data["version"] > version else None
                if item is None:
                    yield b": polling\n\n"
    finally:
        hub.unregister(battle_id, queue)


def publish_states(items) -> None:
    """The states of one battle (``publish_state``) or many (the bulk sweeper), and the
    earliest of their due times, in one Redis pipeline.

    ``items`` yields ``(battle_id, version, state, offer)``.
    """
    global _publisher
    try:
        if _publisher is None:
            _publisher = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5
            )
        now = timezone.now()
        states = []
        with _publisher.pipeline(transaction=False) as pipe:
            for battle_id, version, state, offer in items:
                data = payload(battle_id, version, state, now=now, offer=offer)
                pipe.publish(channel(battle_id), json.dumps(data))
                states.append(state)
            timer.publish_due(pipe, states)
            pipe.execute()
    except redis.RedisError:
        log.warning("could not publish battle states", exc_info=True)
