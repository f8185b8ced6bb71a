"""Benchmark: the clocks on N nodes sharing one PostgreSQL and one Redis (issue 13).

Each *node* is what one machine of the production layout runs (README, "Production
layout on several machines"): gunicorn (pages, POSTs), uvicorn (SSE) and a Celery
clock worker with the Procfile's options; exactly one beat, on node 1. Here the nodes
are process groups on this machine, on their own ports, sharing PostgreSQL (the
``<DATABASE_URL name>_bench_clocks`` database of bench/clocks.py) and a private
redis-server started for the run.

One run, timeline in turns (15 s + 5 s by default; S = ``--start-turns``, 6):
- turn 0-S: ``--battles`` over-the-board battles in which nobody moves (every turn
  expires) are started evenly, by ``--starters`` processes. A battle started later
  plays fewer turns, so that all of them run from turn S to turn S + 3 and end near
  turn S + 4. (One turn was too short: 10,000 starts took 114 s on this machine, and
  the fault windows then held a few dozen expiries.)
- turn S to S + 1.5: steady state, every battle running (about 490 expiries a second
  for 10,000). Meanwhile ``--movers`` other battles move every 5 s, a referee's POST
  going to node k's gunicorn and the SSE viewer of that battle listening on node
  k+1's uvicorn (move round-trip); ``--viewers`` more SSE spectators watch expiring
  battles, spread over the nodes.
- at turn S + 1.5: node 2 is SIGKILLed (worker and its clock timer, gunicorn,
  uvicorn): the timers of the other nodes cover.
- at turn S + 2: node 1, the beat's node, is SIGKILLed; beat is restarted on node 3.
- at turn S + 2.5: the redis-server is SIGKILLed and restarted (wake-ups and states
  published meanwhile are lost; the timers read the due times from the database).
Lateness = applied_at - (deadline + grace) of each expiry, from the ClockEvent trail,
reported per window (by due time). Lost / duplicated expiries over the whole run.

Quick run (about 3 minutes): ``bench/scale.py --battles 300 --start-turns 1``. Every child process is
killed at the end, also on Ctrl-C or an error. Prints a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

# bench/clocks.py sets up Django on its bench database when imported.
from clocks import (
    _roundtrips,
    clear_previous_runs,
    log,
    make_battles,
    measure,
    pct,
    start_spread,
    stream_client,
)
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client
from django.utils import timezone

from games.battles.starting import start_battle  # noqa: E402
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock
from tests.processes import (
    ClockCluster,
    Proc,
    free_port,
    gunicorn_proc,
    port_open,
    start_redis,
    use_broker,
    uvicorn_proc,
    wait_for,
)

WEB_NICE = 5  # the Procfile runs pages and SSE at nice 5, the clock worker at 0


class Node:
    """One machine of the production layout: gunicorn + uvicorn + a clock worker."""

    def __init__(self, number: int, cluster: ClockCluster, tmp: Path, web_workers: int):
        self.number = number
        self.worker = cluster.workers[number - 1]
        self.web_port, self.sse_port = free_port(), free_port()
        self.web = gunicorn_proc(
            cluster.env,
            tmp,
            self.web_port,
            web_workers,
            name=f"node{number}-gunicorn",
            nice=WEB_NICE,
        )
        self.sse = uvicorn_proc(
            cluster.env,
            tmp,
            self.sse_port,
            "--log-level",
            "warning",
            name=f"node{number}-uvicorn",
            nice=WEB_NICE,
        )
        self.sse.ready = ""  # warning level logs nothing on start; wait for the port

    @property
    def web_url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    @property
    def sse_url(self) -> str:
        return f"http://127.0.0.1:{self.sse_port}"

    def start_web(self) -> None:
        self.web.start(wait=False)
        self.sse.start(wait=False)

    def wait_web(self) -> None:
        wait_for(
            lambda: port_open(self.web_port) and port_open(self.sse_port),
            timeout=60,
            what=f"node {self.number}'s web servers",
        )

    def kill(self) -> None:
        for p in (self.worker, self.web, self.sse):
            p.kill()


_children: list[Proc] = []
_redis: list = []


def _kill_everything() -> None:
    """atexit / finally: no child outlives the benchmark."""
    for p in _children:
        with contextlib.suppress(Exception):
            p.kill()
    for r in _redis:
        if r.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(r.pid, signal.SIGKILL)
            r.wait()


def window(events: list[tuple], start: float, end: float) -> list[float]:
    return [late for due, late in events if start <= due < end]


def stats(values: list[float]) -> dict:
    return {
        "expiries": len(values),
        "p50_ms": round(pct(values, 0.5), 1),
        "p99_ms": round(pct(values, 0.99), 1),
        "max_ms": round(max(values, default=0), 1),
    }


async def _viewers(urls: list[str], stop: threading.Event) -> int:
    """Passive SSE spectators; returns how many states they received."""
    import httpx

    received = [0]

    async def watch(url: str) -> None:
        with contextlib.suppress(httpx.HTTPError):
            async with stream_client() as http, http.stream("GET", url) as r:
                async for line in r.aiter_lines():
                    if line.startswith("data: "):
                        received[0] += 1

    tasks = [asyncio.create_task(watch(u)) for u in urls]
    while not stop.is_set():
        await asyncio.sleep(0.2)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return received[0]


def run(args) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    redis_port = free_port()
    _redis.append(start_redis(redis_port))
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    cluster = ClockCluster(tmp, redis_url, connection.settings_dict["NAME"], args.nodes)
    _children.extend([*cluster.workers, cluster.beat])
    settings.THUD_CLOCK_QUEUE, settings.THUD_EVENTS_PREFIX = cluster.queue, cluster.prefix
    settings.REDIS_URL = redis_url
    use_broker(redis_url)
    import games.events.publish

    games.events.publish._publisher = None
    nodes = [Node(i + 1, cluster, tmp, args.web_workers) for i in range(args.nodes)]
    _children.extend(p for n in nodes for p in (n.web, n.sse))
    try:
        return _run(args, cluster, nodes, redis_port)
    finally:
        cluster.close()
        _kill_everything()


def _run(args, cluster: ClockCluster, nodes: list[Node], redis_port: int) -> dict:
    think_ms, move_ms, spread = args.think_ms, args.move_ms, args.start_turns
    turn_s = (think_ms + move_ms) / 1000
    log(f"starting {len(nodes)} nodes…")
    for n in nodes:
        n.start_web()
    cluster.start()  # the workers (one per node) and beat (node 1)
    for n in nodes:
        n.wait_web()
    log(f"creating {args.battles} battles and {args.movers} moving ones…")
    ids = make_battles(
        args.battles, think_ms=think_ms, move_ms=move_ms, plies=spread + 4, tag="scale"
    )
    # Started in this order over ``spread`` turns: the later a battle starts, the fewer
    # turns it plays, and every battle runs through turn S + 3.
    plies = {b: spread + 4 - (i * spread) // len(ids) for i, b in enumerate(ids)}
    Battle.objects.bulk_update(
        [Battle(pk=b, max_plies=p) for b, p in plies.items()], ["max_plies"], batch_size=2000
    )
    movers = make_battles(args.movers, think_ms=600_000, move_ms=5000, plies=100, tag="mover")
    referee = get_user_model().objects.create_user(
        f"scaleref{random.randrange(10**9)}", password="bench-pass-123"
    )
    Battle.objects.get(pk=movers[0]).match.round.tournament.referees.add(referee)
    for battle_id in movers:
        start_battle(battle_id, now=timezone.now())
    c = Client()
    c.force_login(referee)
    cookies = {"sessionid": c.cookies["sessionid"].value}
    home = {b: i % len(nodes) for i, b in enumerate(movers)}

    # Round-trips and spectators in a thread (HTTP only, no database) during turns 0-2.
    stop, warmed, begin = threading.Event(), threading.Event(), threading.Event()
    out: dict = {}

    def web_load() -> None:
        async def both():
            viewers = asyncio.create_task(
                _viewers(
                    [
                        f"{nodes[i % len(nodes)].sse_url}/battles/{b}/events/"
                        for i, b in enumerate(random.sample(ids, min(args.viewers, len(ids))))
                    ],
                    stop,
                )
            )
            try:
                out["roundtrips"] = await _roundtrips(
                    lambda b: nodes[(home[b] + 1) % len(nodes)].sse_url,
                    lambda b: nodes[home[b]].web_url,
                    movers,
                    cookies,
                    args.moves,
                    5.0,
                    warmed,
                    begin,
                )
            finally:
                stop.set()
                out["viewer_states"] = await viewers

        try:
            asyncio.run(both())
        except Exception as exc:  # reported, not fatal: the clock figures still stand
            out["error"] = repr(exc)
            stop.set()
            warmed.set()

    load = threading.Thread(target=web_load, daemon=True)
    load.start()
    # The SSE streams connect and warm up first; the measured moves start with the
    # steady state, once every battle runs, and end (3 moves, 5 s apart) before the
    # first fault.
    warmed.wait(timeout=180)
    t0 = time.time()
    log(
        f"starting the battles over {spread} turns ({spread * turn_s:g} s), {args.starters} processes…"
    )
    start_lag = start_spread(ids, spread * turn_s, args.starters)
    log(f"worst start lag {start_lag * 1000:.0f} ms")
    faults: dict[str, float] = {}

    def at(turns: float) -> None:
        delay = t0 + turns * turn_s - time.time()
        if delay > 0:
            time.sleep(delay)

    at(spread)
    begin.set()
    if len(nodes) >= 3 and not args.no_faults:
        at(spread + 1.5)
        log("SIGKILL node 2 (worker, gunicorn, uvicorn)…")
        faults["node_kill"] = time.time()
        nodes[1].kill()
        at(spread + 2)
        log("SIGKILL node 1 (the beat's node); beat restarts on node 3…")
        faults["beat_kill"] = time.time()
        nodes[0].kill()
        cluster.beat.kill(restart=True)  # the supervisor starts a new beat at once
        at(spread + 2.5)
        log("SIGKILL and restart redis-server…")
        faults["redis_restart"] = time.time()
        r = _redis[-1]
        os.killpg(r.pid, signal.SIGKILL)
        r.wait()
        time.sleep(1.0)
        _redis.append(start_redis(redis_port))
    load.join(timeout=max(0.0, t0 + (spread + 1.5) * turn_s - time.time()) + 60)
    stop.set()
    log("waiting for every battle to finish…")
    totals = measure(ids, plies, timeout=turn_s * (spread + 6) + 60)
    events = [
        (due.timestamp(), (applied - due).total_seconds() * 1000)
        for applied, due in ClockEvent.objects.filter(
            battle_id__in=ids, kind=clock.TURN_EXPIRED
        ).values_list("applied_at", "due_at")
    ]
    bounds = [t0 + spread * turn_s, *faults.values(), float("inf")]
    names = ["steady", *faults]
    windows = {
        name: stats(window(events, bounds[i], bounds[i + 1])) for i, name in enumerate(names)
    }
    rt = out.get("roundtrips", [])
    return {
        "nodes": len(nodes),
        "totals": totals,
        "windows": windows,
        "roundtrip": {
            "samples": len(rt),
            "p50_ms": round(pct(rt, 0.5), 1),
            "p95_ms": round(pct(rt, 0.95), 1),
            "max_ms": round(max(rt, default=0), 1),
        },
        "viewer_states": out.get("viewer_states", 0),
        "error": out.get("error", ""),
        "beat_restarts": cluster.beat.restarts,
        "start_lag_ms": round(start_lag * 1000),
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--battles", type=int, default=10_000)
    parser.add_argument("--think-ms", type=int, default=15_000)
    parser.add_argument("--move-ms", type=int, default=5_000)
    parser.add_argument("--movers", type=int, default=60, help="battles timed for round-trip")
    parser.add_argument("--moves", type=int, default=3, help="timed moves per mover battle")
    parser.add_argument("--viewers", type=int, default=200, help="passive SSE spectators")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn workers per node")
    parser.add_argument("--no-faults", action="store_true", help="steady state only")
    parser.add_argument(
        "--start-turns", type=int, default=6, help="turns over which the battles are started"
    )
    parser.add_argument(
        "--starters", type=int, default=4, help="processes starting the battles in parallel"
    )
    args = parser.parse_args(argv)
    counts = (args.nodes, args.battles, args.movers, args.moves, args.web_workers)
    if min(*counts, args.starters, args.start_turns) < 1:
        parser.error(
            "--nodes, --battles, --movers, --moves, --web-workers, --starters, --start-turns"
            " must be positive"
        )
    if args.think_ms < 1000 or args.move_ms < 500:
        parser.error("--think-ms must be at least 1000 and --move-ms at least 500")
    return args


def main() -> None:
    args = parse_args()
    atexit.register(_kill_everything)
    # SIGTERM ends the run like Ctrl-C does: through the finally blocks.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    call_command("migrate", verbosity=0)
    clear_previous_runs()
    r = run(args)
    connections.close_all()
    t = r["totals"]
    print(
        f"{r['nodes']} nodes, {t['battles']} battles: expected {t['expected']} expiries, "
        f"applied {t['applied']}, duplicates {t['duplicates']}, lost {t['lost']}, "
        f"by the sweep {t['via_sweep']}; worst start lag {r['start_lag_ms']} ms"
    )
    print(f"{'window (by due time)':<24}{'expiries':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, w in r["windows"].items():
        print(f"{name:<24}{w['expiries']:>9}{w['p50_ms']:>9}{w['p99_ms']:>9}{w['max_ms']:>9}")
    rt = r["roundtrip"]
    print(
        f"move round-trip (POST to node k, SSE viewer on node k+1), {rt['samples']} moves: "
        f"p50 {rt['p50_ms']} ms, p95 {rt['p95_ms']} ms, max {rt['max_ms']} ms; "
        f"{r['viewer_states']} states to passive viewers"
    )
    if r["error"]:
        print(f"web load error: {r['error']}")
    w = r["windows"]
    print(
        json.dumps(
            {
                "scale_nodes": r["nodes"],
                "scale_battles": t["battles"],
                "scale_lateness_p50_ms": w["steady"]["p50_ms"],
                "scale_lateness_p99_ms": w["steady"]["p99_ms"],
                "scale_lateness_max_ms": w["steady"]["max_ms"],
                "scale_lost": t["lost"],
                "scale_duplicates": t["duplicates"],
                "scale_node_kill_max_lateness_ms": w.get("node_kill", {}).get("max_ms"),
                "scale_beat_kill_max_lateness_ms": w.get("beat_kill", {}).get("max_ms"),
                "scale_redis_restart_max_lateness_ms": w.get("redis_restart", {}).get("max_ms"),
                "scale_roundtrip_p95_ms": rt["p95_ms"],
            }
        )
    )


if __name__ == "__main__":
    main()
