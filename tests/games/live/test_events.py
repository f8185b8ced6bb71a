"""SSE: the per-process fan-out (pure asyncio) and, against a real uvicorn subprocess,
every client receiving every published state plus a snapshot on reconnect."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket

import httpx
import pytest
from django.db import connection
from django.utils import timezone

from games.battles.referee import pause, resume
from games.battles.starting import create_battles, start_battle
from games.events import publish
from games.live import stream as live
from games.models.battle import Battle
from tests.factories import make_match
from tests.processes import free_port, uvicorn_proc


def test_sse_message_format():
    assert live.format_sse({"version": 3}) == b'event: state\ndata: {"version": 3}\n\n'


def test_a_published_state_is_parsed_and_framed_once_for_all_its_watchers():
    """2,000 spectators of one battle cost one serialisation, not one each: every queue
    gets the same message, and every stream frames it into the same bytes."""

    async def run():
        hub = live._Hub()
        hub.task = asyncio.get_running_loop().create_future()  # no real subscription
        watchers = [hub.register(7) for _ in range(3)]
        other = hub.register(8)
        hub.dispatch(b"7", json.dumps({"version": 4, "status": "running"}).encode())
        hub.dispatch(b"7", b"not json")  # refused, delivered to nobody
        hub.dispatch(b"x", b"{}")
        got = [queue.get_nowait() for queue in watchers]
        assert all(queue.empty() for queue in [*watchers, other])
        return got

    got = asyncio.run(run())
    assert got[0] == {"version": 4, "status": "running"}
    assert all(item is got[0] for item in got)
    frames = [live.format_sse(item) for item in got]
    assert all(frame is frames[0] for frame in frames)
    assert frames[0] == live.format_sse({"version": 4, "status": "running"})
    # The hall screen names the same state differently, framed once too.
    assert live.format_sse(got[1], event="battle") is live.format_sse(got[2], event="battle")
    assert live.format_sse(got[0], event="battle").startswith(b"event: battle\ndata: {")


def test_a_published_text_with_a_newline_is_framed_on_one_data_line():
    published = live.Published('{"version": 1,\n "status": "paused"}')
    assert published == {"version": 1, "status": "paused"}
    assert (
        live.format_sse(published) == b'event: state\ndata: {"version": 1, "status": "paused"}\n\n'
    )


def test_overflowing_client_queue_is_replaced_by_a_resync_marker():
    async def run():
        hub = live._Hub()
        hub.task = asyncio.get_running_loop().create_future()  # no real subscription
        queue = hub.register(7)
        for i in range(live.QUEUE_SIZE + 3):
            hub._deliver(queue, {"version": i})
        items = [queue.get_nowait() for _ in range(queue.qsize())]
        hub.unregister(7, queue)
        return items, hub.queues

    items, queues = asyncio.run(run())
    # The backlog was dropped for one resync marker; later messages follow it.
    assert items.count(live.RESYNC) == 1 and len(items) < live.QUEUE_SIZE
    assert items[items.index(live.RESYNC) + 1 :] == [{"version": 17}, {"version": 18}]
    assert queues == {}


def test_hub_is_ready_only_once_redis_confirms_and_then_misses_nothing(settings):
    """The first stream of a process waits for the subscription before reading its
    snapshot: an event published the moment ``wait_ready`` returns is delivered."""
    import redis

    settings.THUD_EVENTS_PREFIX = f"test-ready-{socket.gethostname()}-"

    async def run():
        hub = live._Hub()
        queue = hub.register(42)
        assert not hub.ready.is_set()  # psubscribe sent, not yet confirmed
        await hub.wait_ready()
        ready = hub.ready.is_set()
        redis.Redis.from_url(settings.REDIS_URL).publish(
            publish.channel(42), json.dumps({"version": 5})
        )
        item = await asyncio.wait_for(queue.get(), timeout=5)
        hub.task.cancel()
        return ready, item

    ready, item = asyncio.run(run())
    assert ready and item == {"version": 5}


@pytest.fixture
def sse_server(cluster_factory, tmp_path):
    cluster = cluster_factory(workers=0, start=False)
    port = free_port()
    proc = uvicorn_proc(cluster.env, tmp_path, port, "--log-level", "info")
    proc.start()
    yield f"http://127.0.0.1:{port}"
    proc.stop()


async def _client(
    base: str,
    battle_id: int,
    received: dict,
    key: int,
    ready: asyncio.Event,
    counter: list,
    n: int,
    stop: asyncio.Event,
) -> None:
    async with (
        httpx.AsyncClient(timeout=httpx.Timeout(60.0)) as http,
        http.stream("GET", f"{base}/battles/{battle_id}/events/") as response,
    ):
        assert response.headers["content-type"].startswith("text/event-stream")
        async for line in response.aiter_lines():
            if not line.startswith("data: "):
                continue
            data = json.loads(line[6:])
            received.setdefault(key, []).append(data)
            if data.get("snapshot") and len(received[key]) == 1:
                counter[0] += 1
                if counter[0] == n:
                    ready.set()
            if stop.is_set():
                return


@pytest.mark.clock
@pytest.mark.django_db(transaction=True)
def test_t8_every_sse_client_receives_every_state_and_reconnect_gets_a_snapshot(sse_server):
    n_clients, n_events = 100, 6
    match = make_match()[0]
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    battle_id = start_battle(b1.pk, now=timezone.now()).pk
    Battle.objects.filter(pk=battle_id).update(think_ms=600_000)  # no expiry during the test
    pause(battle_id, now=timezone.now())

    async def run():
        received: dict[int, list] = {}
        ready, stop, counter = asyncio.Event(), asyncio.Event(), [0]
        tasks = [
            asyncio.create_task(
                _client(sse_server, battle_id, received, i, ready, counter, n_clients, stop)
            )
            for i in range(n_clients)
        ]
        await asyncio.wait_for(ready.wait(), timeout=60)
        await asyncio.sleep(0.5)  # every connection is registered with the hub
        published = []
        for i in range(n_events):
            op = resume if i % 2 == 0 else pause
            b = await asyncio.to_thread(_in_thread, op, battle_id)
            published.append(b.clock_version)
            await asyncio.sleep(0.2)

        def complete() -> bool:
            return all(
                {d["version"] for d in received.get(k, [])} >= set(published)
                for k in range(n_clients)
            )

        for _ in range(300):
            if complete():
                break
            await asyncio.sleep(0.1)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # A reconnecting client starts from a snapshot of the current version.
        again: dict[int, list] = {}
        ready2, counter2 = asyncio.Event(), [0]
        late = asyncio.create_task(
            _client(sse_server, battle_id, again, 0, ready2, counter2, 1, asyncio.Event())
        )
        await asyncio.wait_for(ready2.wait(), timeout=30)
        late.cancel()
        await asyncio.gather(late, return_exceptions=True)
        return received, published, again

    received, published, again = asyncio.run(run())
    missing = [
        k
        for k in range(n_clients)
        if not {d["version"] for d in received.get(k, [])} >= set(published)
    ]
    assert not missing, f"{len(missing)} clients missed events"
    assert again[0][0]["snapshot"] is True
    assert again[0][0]["version"] == published[-1]
    assert all(received[k][0]["snapshot"] for k in range(n_clients))


def _in_thread(op, battle_id):
    try:
        return op(battle_id, now=timezone.now())
    finally:
        connection.close()


def test_sse_view_refuses_unknown_battle(client, db):
    assert client.get("/battles/999999/events/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_without_redis_a_stream_polls_its_battle_and_sends_what_changed(settings, monkeypatch):
    from asgiref.sync import sync_to_async

    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    monkeypatch.setattr(live, "hub", live._Hub())
    monkeypatch.setattr(live, "POLL_S", 0.2)
    b1, _ = create_battles(make_match()[0], mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())

    async def run():
        stream = live.stream(b1.pk, read_clock=timezone.now)
        first = await stream.__anext__()

        def pause_unpublished() -> None:  # nobody can publish it
            pause(b1.pk, now=timezone.now())
            connection.close()

        await sync_to_async(pause_unpublished)()
        chunks = []
        while not chunks or not chunks[-1].startswith(b"event: state"):
            chunks.append(await asyncio.wait_for(stream.__anext__(), timeout=5))
        await stream.aclose()
        live.hub.task.cancel()
        return first, chunks

    first, chunks = asyncio.run(run())
    assert json.loads(first.split(b"data: ")[1])["status"] == "running"
    state = json.loads(chunks[-1].split(b"data: ")[1])
    assert (
        state["status"] == "paused"
        and state["version"] > json.loads(first.split(b"data: ")[1])["version"]
    )


def hall_events(
    monkeypatch, *, flood_s: float, listen_s: float, fingerprints: list[str], battles=(7,)
):
    """The hall stream's events in its first ``listen_s`` seconds, while its battles
    publish a state every 5 ms for ``flood_s`` seconds, its round reading
    ``fingerprints`` one after the other."""
    monkeypatch.setattr(live, "POLL_S", 0.05)
    monkeypatch.setattr(live, "HALL_BATTLE_EVERY_S", 0.2)

    async def run():
        hub = live._Hub()
        hub.task = asyncio.get_running_loop().create_future()  # no real subscription
        hub.ready = None
        monkeypatch.setattr(live, "hub", hub)
        reads = iter(fingerprints)
        last = [fingerprints[0]]

        def read_watch():
            last[0] = next(reads, last[0])
            return frozenset(battles), last[0]

        body = live.hall_stream((frozenset(battles), fingerprints[0]), read_watch)
        assert await body.__anext__() == b": connected\n\n"
        sent = 0

        async def flood():
            nonlocal sent
            end = asyncio.get_running_loop().time() + flood_s
            while asyncio.get_running_loop().time() < end:
                sent += 1
                hub.dispatch(str(battles[0]).encode(), json.dumps({"version": sent}).encode())
                await asyncio.sleep(0.005)

        publisher = asyncio.create_task(flood())
        frames = []
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(listen_s):
                async for frame in body:
                    frames.append(frame)
        publisher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await publisher
        await body.aclose()
        return frames, sent

    return asyncio.run(run())


def test_the_hall_is_told_of_its_round_while_its_battles_never_rest(monkeypatch):
    # A busy round never left the stream quiet for POLL_S: a new round or a result was
    # not told while a thousand battles were being played.
    frames, sent = hall_events(
        monkeypatch, flood_s=3.0, listen_s=1.0, fingerprints=["r1", "r1", "r2"]
    )
    assert sent > 50
    assert any(f.startswith(b"event: changed\n") and b'"r2"' in f for f in frames)


def test_a_busy_rounds_states_are_told_at_most_every_so_often_and_the_newest_last(monkeypatch):
    frames, sent = hall_events(monkeypatch, flood_s=1.0, listen_s=1.6, fingerprints=["r1"])
    told = [json.loads(f.split(b"data: ")[1]) for f in frames if f.startswith(b"event: battle")]
    assert sent > 20
    assert 1 <= len(told) <= 1.6 / 0.2 + 1  # one a window at most, not one a state
    assert told[-1] == {"version": sent}  # the last state is told after the flood
