"""Live battle state over Server-Sent Events, fed by Redis pub/sub.

- Each server process holds ONE ``PSUBSCRIBE battle:*`` (``_Hub``) and fans the
  messages out to a bounded ``asyncio.Queue`` per SSE connection. A slow client
  whose queue overflows gets a fresh snapshot instead of the backlog.
- Every connection starts with a snapshot read from the database (settled on read);
  the states arrive as ``games.events.publish`` publishes them on commit.
- The stream sends ``event: state`` messages and ``: keepalive`` comments.
- ``hall_stream`` watches a whole round for the hall screen: its battles' states, and a
  fingerprint of the rest of the screen read every ``POLL_S``.
- ``user_stream`` does the same for one user's notices (``user:*``, ``user_hub``): every
  page a logged-in user has open reads it (``templates/_notices.html``). While the
  subscription is down (Redis unreachable), each stream reads its battle every
  ``POLL_S`` and sends what changed: the clients see every move without Redis.
- ``tournament_stream`` does the same for one tournament's events (``tournament:*``,
  ``tournament_hub``), sent as ``event: <name>`` (``checkin``: the desk pages refetch).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django import db
from django.conf import settings

from games.battles.settle import settle
from games.events import publish
from games.models.history import ClockEvent

log = logging.getLogger(__name__)

QUEUE_SIZE = 16
KEEPALIVE_S = 15.0
#: While Redis is down (no published states), how often a stream reads the battle.
POLL_S = 2.0
#: The hall screen is told of its battles' states at most this often (it fetches them
#: all again, at most every 700 ms: ``static/js/hall.js``).
HALL_BATTLE_EVERY_S = 0.7
SNAPSHOT_CONCURRENCY = 4
SUBSCRIBE_WAIT_S = 2.0
RESYNC = object()  # queue marker: send a fresh snapshot


def snapshot(battle_id: int, *, now: datetime) -> dict[str, Any]:
    """Settle on read, then the battle's current state as an event payload."""
    battle = settle(battle_id, via=ClockEvent.Via.READ, now=now)
    data = publish.payload(
        battle.pk, battle.clock_version, battle.clock_state, now=now, offer=battle.end_offered_by
    )
    return data | {"snapshot": True}


def snapshot_and_close(battle_id: int, read_clock: Callable[[], datetime]) -> dict[str, Any]:
    """``snapshot`` for a streaming response, as of the time ``read_clock`` gives when it is
    taken: don't hold a database connection while the stream stays open (one per
    connection would exhaust the server's slots)."""
    try:
        return snapshot(battle_id, now=read_clock())
    finally:
        db.connection.close()


def check_and_close(check, *args):
    try:
        return check(*args)
    finally:
        db.connection.close()


_snapshot_slots: asyncio.Semaphore | None = None


async def _snapshot(battle_id: int, read_clock: Callable[[], datetime]) -> dict[str, Any]:
    # Bound the concurrent snapshot reads of this process (a reconnect storm after a
    # restart would otherwise open one database connection per client at once).
    global _snapshot_slots
    if _snapshot_slots is None:
        _snapshot_slots = asyncio.Semaphore(SNAPSHOT_CONCURRENCY)
    async with _snapshot_slots:
        return await sync_to_async(snapshot_and_close, thread_sensitive=False)(
            battle_id, read_clock
        )


class Published(dict):
    """A message as published, parsed once for every watcher of its key: the watchers'
    streams frame it (``format_sse``) from the text as published, once per event name, so
    a battle with 2,000 watchers is serialised once, not once per watcher."""

    __slots__ = ("_frames", "text")

    def __init__(self, raw: bytes | str) -> None:
        text = raw.decode() if isinstance(raw, bytes) else raw
        super().__init__(json.loads(text))
        # An SSE data line cannot hold a newline (json.dumps never writes one).
        self.text = text if "\n" not in text else json.dumps(dict(self))
        self._frames: dict[str, bytes] = {}

    def frame(self, event: str) -> bytes:
        found = self._frames.get(event)
        if found is None:
            found = self._frames[event] = f"event: {event}\ndata: {self.text}\n\n".encode()
        return found


def format_sse(data: dict, event: str = "state") -> bytes:
    if isinstance(data, Published):
        return data.frame(event)
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


class _Hub:
    """One pattern subscription per process, fanned out to per-connection queues: of
    ``battle:*`` keyed by battle id (``hub``), or of ``user:*`` by user id (``user_hub``)."""

    def __init__(self, kind: str = "battle") -> None:
        self.kind = kind
        self.queues: dict[int, set[asyncio.Queue]] = {}
        self.task: asyncio.Task | None = None
        self.ready: asyncio.Event | None = None  # set while the subscription is live

    @property
    def live(self) -> bool:
        """True while the Redis subscription is confirmed (states arrive as published)."""
        return self.ready is not None and self.ready.is_set()

    def start(self) -> None:
        """Subscribe, unless this process already does."""
        if self.task is None or self.task.done():
            self.ready = asyncio.Event()
            self.task = asyncio.get_running_loop().create_task(self._run())

    def register(self, battle_id: int, queue: asyncio.Queue | None = None) -> asyncio.Queue:
        """A queue for ``battle_id``'s messages (``queue``: one more battle into the same
        queue, as the hall screen watches a whole round)."""
        self.start()
        if queue is None:
            queue = asyncio.Queue(maxsize=QUEUE_SIZE)
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

    def dispatch(self, key: bytes | str, raw: bytes | str) -> None:
        """Hand one published message to every queue watching ``key``: parsed once (and
        framed once per event name, ``Published``), only if somebody watches it."""
        try:
            queues = tuple(self.queues.get(int(key), ()))
            # Every battle's states arrive here: read only the watched.
            data = Published(raw) if queues else None
        except (ValueError, TypeError):
            return
        for queue in queues:
            self._deliver(queue, data)

    async def _run(self) -> None:
        ready = self.ready
        assert ready is not None  # register() makes it before it starts this task
        pattern = f"{settings.THUD_EVENTS_PREFIX}{self.kind}:*"
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
                            ready.set()
                            continue
                        if message.get("type") == "pmessage":
                            self.dispatch(message["channel"][prefix_len:], message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                ready.clear()
                log.warning("%s event subscription lost; reconnecting", self.kind, exc_info=True)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()


hub = _Hub()
user_hub = _Hub("user")
tournament_hub = _Hub("tournament")


async def stream(battle_id: int, *, read_clock: Callable[[], datetime]):
    """The SSE body: a snapshot, then every published state, with keepalives. The view
    hands in the wall clock (``read_clock``) each snapshot is taken at."""
    queue = hub.register(battle_id)
    try:
        await hub.wait_ready()  # a snapshot read before the subscription could miss an event
        version = -1
        item = RESYNC
        while True:
            if item is RESYNC:
                data = await _snapshot(battle_id, read_clock)
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
                data = await _snapshot(battle_id, read_clock)
                item = data if data["version"] > version else None
                if item is None:
                    yield b": polling\n\n"
    finally:
        hub.unregister(battle_id, queue)


async def keyed_stream(
    events: _Hub,
    key: int,
    to_sse: Callable[[Any], bytes | None],
    *,
    connected: bytes = b": connected\n\n",
    keepalive: bytes = b": keepalive\n\n",
    replay: Callable[[], list[Any]] | None = None,
):
    """The SSE body of one key of ``events`` (a user, a tournament): ``connected`` once
    subscribed, then each message as ``to_sse`` writes it (``None``: skipped), with
    ``keepalive`` every ``KEEPALIVE_S`` of silence (another format, NDJSON, passes its
    own). ``replay`` (called in a thread once subscribed) gives what to send first: a
    user's recent notices, which the stream may then also tell from the queue (the
    readers drop a notice they have seen). Else nothing is replayed: the pages that read
    these refetch what they show."""
    queue = events.register(key)
    try:
        await events.wait_ready()
        if connected:
            yield connected
        if replay is not None:
            for item in await sync_to_async(replay, thread_sensitive=False)():
                event = to_sse(item)
                if event is not None:
                    yield event
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), timeout=KEEPALIVE_S)
            except TimeoutError:
                yield keepalive
                continue
            event = to_sse(item)
            if event is not None:
                yield event
    finally:
        events.unregister(key, queue)


def _notice(item: Any) -> bytes | None:
    """A notice as sent, stamped with the server's time of sending (``at``, epoch ms): a
    page frozen in a background tab reads it late, and must not show it as news then
    (``static/js/notices.js`` drops a notice older than a few minutes)."""
    if not isinstance(item, dict):
        return None
    if "at" in item:  # a recent notice sent again: the time it was published
        return format_sse(item, event="notice")
    return format_sse(item | {"at": int(time.time() * 1000)}, event="notice")


def user_stream(user_id: int):
    """The SSE body of one user's notices (``publish.publish_notices``), each as ``event:
    notice`` with its time of sending: first the last minute's (``publish.recent_notices``,
    with the time they were published), for a page that was loading when they came, then
    each as it comes. ``static/js/notices.js`` shows a notice once a device and drops a
    stale one. What a page misses, the home page and "Your games" list anyway."""
    return keyed_stream(user_hub, user_id, _notice, replay=lambda: publish.recent_notices(user_id))


async def hall_stream(
    watched: tuple[frozenset[int], str],
    read_watch: Callable[[], tuple[frozenset[int], str]],
):
    """The hall screen's SSE body: ``event: battle`` when a battle of the round changed
    (its state as published), ``event: changed`` when the rest of the screen did, or the
    round's battles did (``read_watch``, called in a thread every ``POLL_S``: the battles
    and the fingerprint). Without Redis the fingerprint still arrives; the battles'
    states come with the next change the fingerprint sees.

    The screen fetches all the round's battles on ``battle`` (``static/js/hall.js``), so
    the states of a busy round are told at most every ``HALL_BATTLE_EVERY_S`` (the newest
    one; none is lost, the next fetch shows it), and the round's own changes are read on
    time however busy its battles are."""
    battles, fingerprint = watched
    queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_SIZE)
    hub.start()
    for battle_id in battles:
        hub.register(battle_id, queue)
    loop = asyncio.get_running_loop()
    try:
        await hub.wait_ready()
        yield b": connected\n\n"
        told = next_poll = loop.time()
        pending: Any = None  # the newest state not told yet
        next_battle = told  # when a state may be told
        while True:
            wake = min(next_poll, next_battle) if pending is not None else next_poll
            with contextlib.suppress(TimeoutError):
                item = await asyncio.wait_for(queue.get(), timeout=max(0.0, wake - loop.time()))
                pending = item if isinstance(item, dict) else {}
            now = loop.time()
            if now >= next_poll:
                next_poll = now + POLL_S
                now_battles, now_fingerprint = await sync_to_async(
                    read_watch, thread_sensitive=False
                )()
                if (now_battles, now_fingerprint) != (battles, fingerprint):
                    for battle_id in battles - now_battles:
                        hub.unregister(battle_id, queue)
                    for battle_id in now_battles - battles:
                        hub.register(battle_id, queue)
                    battles, fingerprint = now_battles, now_fingerprint
                    told = now
                    yield format_sse({"fingerprint": fingerprint}, event="changed")
                    continue
            if pending is not None and now >= next_battle:
                told, next_battle = now, now + HALL_BATTLE_EVERY_S
                yield format_sse(pending, event="battle")
                pending = None
            elif now - told >= KEEPALIVE_S:
                told = now
                yield b": keepalive\n\n"
    finally:
        for battle_id in battles:
            hub.unregister(battle_id, queue)


def _tournament_event(item: Any) -> bytes | None:
    if item is RESYNC:
        return format_sse({"event": "resync"}, event="checkin")
    if isinstance(item, dict) and isinstance(item.get("event"), str):
        return format_sse(item, event=item["event"])
    return None


def tournament_stream(tournament_id: int):
    """The SSE body of one tournament's events (``publish.publish_tournament_event``),
    each by its name; a missed event costs the page one refresh."""
    return keyed_stream(tournament_hub, tournament_id, _tournament_event)
