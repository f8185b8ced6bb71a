"""Benchmark of the quickfire clock enforcement (run with no arguments: `make bench`).

What it measures, on its own PostgreSQL database (``<DATABASE_URL name>_bench_clocks``,
created and migrated here) and Redis database 3 with a private queue:

1. 200 and 1,000 concurrently running timed over-the-board battles in which nobody
   moves (every turn expires). Phases: 200 battles with think 3 s + move 1 s, and
   1,000 battles with the real 15 s + 5 s (both about 50 expiries/s); grace 300 ms.
   Lateness = applied_at - (deadline + grace), from the ClockEvent audit trail;
   expected / applied / duplicated / lost expiries.
2. The same (200 battles) with a Celery worker SIGKILLed mid-run (two supervised
   workers), and with its own redis-server SIGKILLed and restarted.
3. Move round-trip with 100 battles: an HTTP POST of a move (referee "moved" button)
   to gunicorn until the opponent's SSE connection (uvicorn) receives the new state, as
   the Procfile deploys them; each battle moves every 5 s (real quickfire pace), then
   once more back to back with 8 moves in flight (saturation figure).

Prints a table, then one JSON line of the figures.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from django.utils import timezone

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
BENCH_REDIS = os.environ.get("THUD_BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")


def _bench_database() -> None:
    import psycopg

    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/thud")
    parsed = urlparse(url)
    name = f"{parsed.path.lstrip('/') or 'thud'}_bench_clocks"
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = parsed._replace(path=f"/{name}").geturl()


_bench_database()
os.environ["REDIS_URL"] = BENCH_REDIS
import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402

from games.battles.starting import start_battle  # noqa: E402
from games.models.battle import Battle  # noqa: E402
from games.models.history import ClockEvent, Move  # noqa: E402
from games.rules import clock  # noqa: E402
from tests.processes import (  # noqa: E402
    ClockCluster,
    busy_processes,
    free_port,
    gunicorn_proc,
    port_open,
    start_redis,
    use_broker,
    uvicorn_proc,
    wait_for,
)
from tournaments.models.people import Player  # noqa: E402
from tournaments.models.rounds import Match, Round  # noqa: E402
from tournaments.models.tournament import Entry, Tournament  # noqa: E402

settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


def make_battles(n: int, *, think_ms: int, move_ms: int, plies: int, tag: str) -> list[int]:
    t = Tournament.objects.create(
        name=f"bench {tag}",
        slug=f"bench-{tag}-{random.randrange(10**9)}",
        variant="timed24",
        think_ms=think_ms,
        move_ms=move_ms,
        grace_ms=300,
        move_unit="ply",
        max_consecutive_forfeits=999,
        outage_threshold_ms=120_000,
    )
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    players = Player.objects.bulk_create([Player(name=f"B{tag}{i}") for i in range(2 * n)])
    entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players])
    matches = Match.objects.bulk_create(
        [
            Match(round=rnd, table=i + 1, player_a=entries[2 * i], player_b=entries[2 * i + 1])
            for i in range(n)
        ]
    )
    rows = Battle.objects.bulk_create(
        [
            Battle(
                match=m,
                number=1,
                mode=Battle.Mode.OTB,
                first_entry=m.player_a,
                second_entry=m.player_b,
                max_plies=plies,
                think_ms=think_ms,
                move_ms=move_ms,
                grace_ms=300,
                max_consecutive_forfeits=999,
                outage_threshold_ms=120_000,
            )
            for m in matches
        ]
    )
    return [b.pk for b in rows]


def _start_slice(ids: list[int], spread_s: float, t0: float, first: int, step: int) -> float:
    """Start ``ids[first::step]`` each at its time in the spread; the worst lag in s."""
    lag = 0.0
    for i in range(first, len(ids), step):
        delay = t0 + spread_s * i / len(ids) - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        lag = max(lag, -delay)
        start_battle(ids[i], now=timezone.now())
    return lag


def _start_child(ids, spread_s, t0, first, step, lags) -> None:
    import games.events.publish

    games.events.publish._publisher = None  # the parent's Redis client is not this process's
    try:
        lags[first] = _start_slice(ids, spread_s, t0, first, step)
    finally:
        connections.close_all()


def clear_previous_runs() -> int:
    """Empty what earlier runs left on this bench database (its own, never a real one).

    Leftover running battles (of a killed run or a profiling session) would expire
    beside the measured ones, and the rows of every earlier run (thousands of battles,
    their dead tuples, an autovacuum that may start mid-run) would make a run's figures
    depend on how many ran before it. Each run starts from empty, analysed tables.
    Returns how many battles were still running.
    """
    running = Battle.objects.exclude(status=Battle.Status.FINISHED).count()
    if connection.vendor != "postgresql":
        Battle.objects.exclude(status=Battle.Status.FINISHED).update(status=Battle.Status.FINISHED)
        return running
    tables = [m._meta.db_table for m in (ClockEvent, Move, Battle, Tournament)]
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(tables)} CASCADE")
        for table in tables:
            cursor.execute(f"VACUUM ANALYZE {table}")
    return running


def start_spread(ids: list[int], spread_s: float, processes: int = 1) -> float:
    """Start the battles evenly over ``spread_s`` seconds, from ``processes`` forked
    processes (one start takes a few ms: 10,000 in one turn need several). Returns the
    worst lag of a start behind its time, in seconds."""
    if processes <= 1:
        return _start_slice(ids, spread_s, time.monotonic(), 0, 1)
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    lags = ctx.Manager().dict()
    connections.close_all()  # each child opens its own
    t0 = time.monotonic() + 0.2  # CLOCK_MONOTONIC is the same in every process
    children = [
        ctx.Process(target=_start_child, args=(ids, spread_s, t0, k, processes, lags))
        for k in range(processes)
    ]
    for child in children:
        child.start()
    for child in children:
        child.join()
    if any(child.exitcode != 0 for child in children):
        raise RuntimeError("a battle-starting process failed")
    return max(lags.values())


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def measure(ids: list[int], plies: int | dict[int, int], timeout: float) -> dict:
    """Expiries applied, duplicated and lost; ``plies`` per battle or for all of them."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not Battle.objects.filter(pk__in=ids).exclude(status="finished").exists():
            break
        time.sleep(1)
    events = list(
        ClockEvent.objects.filter(battle_id__in=ids, kind=clock.TURN_EXPIRED).values_list(
            "battle_id", "ply", "applied_at", "due_at", "via"
        )
    )
    late = [(a - d).total_seconds() * 1000 for _b, _p, a, d, _v in events]
    distinct = len({(b, p) for b, p, *_ in events})
    expected = sum(plies.values()) if isinstance(plies, dict) else len(ids) * plies
    return {
        "battles": len(ids),
        "expected": expected,
        "applied": len(events),
        "duplicates": len(events) - distinct,
        "lost": expected - distinct,
        "p50_ms": round(pct(late, 0.5), 1),
        "p99_ms": round(pct(late, 0.99), 1),
        "max_ms": round(max(late, default=0), 1),
        "via_sweep": sum(1 for *_x, v in events if v == "sweep"),
    }


def run_expiries(
    n: int,
    *,
    think_ms: int,
    move_ms: int,
    plies: int,
    fault=None,
    redis_url: str = BENCH_REDIS,
    workers: int = 2,
) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="bench-clocks-"))
    cluster = ClockCluster(
        tmp, redis_url, connection.settings_dict["NAME"], workers, options=WORKER_OPTIONS
    )
    settings.THUD_CLOCK_QUEUE, settings.THUD_EVENTS_PREFIX = cluster.queue, cluster.prefix
    settings.REDIS_URL = redis_url
    use_broker(redis_url)
    import games.events.publish

    games.events.publish._publisher = None
    try:  # also an interrupt while the cluster starts must stop what already runs
        cluster.start()
        ids = make_battles(n, think_ms=think_ms, move_ms=move_ms, plies=plies, tag=str(n))
        turn_s = (think_ms + move_ms) / 1000
        start_spread(ids, turn_s)
        if fault is not None:
            time.sleep(turn_s)
            fault(cluster)
        return measure(ids, plies, timeout=turn_s * (plies + 2) + 60)
    finally:
        cluster.close()


def run_redis_restart(n: int) -> dict:
    port = free_port()
    procs = [start_redis(port)]

    def fault(_cluster) -> None:
        os.killpg(procs[-1].pid, signal.SIGKILL)
        procs[-1].wait()
        time.sleep(1.0)
        procs.append(start_redis(port))

    try:
        return run_expiries(
            n,
            think_ms=3000,
            move_ms=1000,
            plies=4,
            fault=fault,
            redis_url=f"redis://127.0.0.1:{port}/0",
        )
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def _per_battle(base):
    return base if callable(base) else (lambda _battle_id: base)


_TLS = None


def stream_client(**kwargs):
    """An httpx client for ONE long-lived stream (SSE), or a few clients' worth of
    requests. httpcore's pool matches every waiting request against every connection
    each time one changes (``_assign_requests_to_connections``): 200 streams on one
    client cost the load generator a whole core (measured with cProfile in
    bench/mixed.py: 140 s of 180 s), which the server under test then lacks."""
    import ssl

    import httpx

    global _TLS
    if _TLS is None:
        _TLS = ssl.create_default_context()  # built once: loading the CA file is slow
    return httpx.AsyncClient(
        **({"timeout": None, "limits": httpx.Limits(max_connections=1)} | kwargs), verify=_TLS
    )


async def _roundtrips(
    base,
    web_base,
    ids: list[int],
    cookies: dict,
    moves: int,
    pace_s: float,
    warmed=None,
    begin=None,
) -> list[float]:
    """Moves POSTed to ``web_base`` (gunicorn), timed until the SSE stream from ``base``
    (uvicorn) shows the new state. With ``pace_s`` each battle moves once per ``pace_s``
    seconds, spread evenly (real play); with 0, moves go back to back, 8 in flight.
    ``base`` and ``web_base`` are URLs, or functions of the battle id giving one (the
    viewer and the mover of a battle on different nodes). ``warmed`` (a
    ``threading.Event``) is set once every stream is connected and warmed up; the
    measured moves then wait for ``begin`` (a ``threading.Event``), if given.
    """
    import httpx

    sse_of, web_of = _per_battle(base), _per_battle(web_base)

    latest: dict[int, int] = {}
    waiters: dict[tuple[int, int], asyncio.Future] = {}
    ready = asyncio.Event()
    connected = [0]

    async def listen(battle_id: int) -> None:
        async with (
            stream_client() as http,
            http.stream("GET", f"{sse_of(battle_id)}/battles/{battle_id}/events/") as r,
        ):
            async for line in r.aiter_lines():
                if not line.startswith("data: "):
                    continue
                data = json.loads(line[6:])
                if data.get("snapshot") and battle_id not in latest:
                    connected[0] += 1
                    if connected[0] == len(ids):
                        ready.set()
                latest[battle_id] = data["version"]
                fut = waiters.pop((battle_id, data["version"]), None)
                if fut and not fut.done():
                    fut.set_result(time.perf_counter())

    async with httpx.AsyncClient(timeout=60, cookies=cookies) as web:
        tasks = [asyncio.create_task(listen(b)) for b in ids]
        await asyncio.wait_for(ready.wait(), timeout=120)
        await asyncio.sleep(0.5)
        r = await web.get(f"{web_of(ids[0])}/battles/referee/{ids[0]}/")
        token = web.cookies.get("csrftoken")
        samples: list[float] = []
        sem = asyncio.Semaphore(len(ids) if pace_s else 8)

        async def one(battle_id: int) -> None:
            async with sem:
                version = latest[battle_id]
                fut = asyncio.get_running_loop().create_future()
                waiters[(battle_id, version + 1)] = fut
                t0 = time.perf_counter()
                r = await web.post(
                    f"{web_of(battle_id)}/battles/referee/{battle_id}/moved/",
                    data={"version": version},
                    headers={"X-CSRFToken": token, "HX-Request": "true"},
                )
                assert r.status_code == 200, r.status_code
                t1 = await asyncio.wait_for(fut, timeout=30)
                samples.append((t1 - t0) * 1000)

        async def later(delay: float, battle_id: int) -> None:
            await asyncio.sleep(delay)
            await one(battle_id)

        # One unmeasured round back to back first: cold workers (imports, templates,
        # connections) stall their first requests by seconds.
        await asyncio.gather(*(one(b) for b in ids))
        samples.clear()
        if warmed is not None:
            warmed.set()
        while begin is not None and not begin.is_set():
            await asyncio.sleep(0.05)
        for _ in range(moves):
            step = pace_s / len(ids)
            await asyncio.gather(*(later(i * step, b) for i, b in enumerate(ids)))
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert r.status_code == 200
        return samples


def run_roundtrip(n: int = 100, moves: int = 3, pace_s: float = 5.0) -> dict:
    from django.test import Client

    tmp = Path(tempfile.mkdtemp(prefix="bench-clocks-"))
    cluster = ClockCluster(tmp, BENCH_REDIS, connection.settings_dict["NAME"], 1)
    settings.THUD_CLOCK_QUEUE, settings.THUD_EVENTS_PREFIX = cluster.queue, cluster.prefix
    settings.REDIS_URL = BENCH_REDIS
    use_broker(BENCH_REDIS)
    import games.events.publish

    games.events.publish._publisher = None
    ids = make_battles(n, think_ms=600_000, move_ms=5000, plies=100, tag="rt")
    referee = get_user_model().objects.create_user(
        f"benchref{random.randrange(10**9)}", password="bench-pass-123"
    )
    Battle.objects.get(pk=ids[0]).match.round.tournament.referees.add(referee)
    for battle_id in ids:
        start_battle(battle_id, now=timezone.now())
    c = Client()
    c.force_login(referee)
    port = free_port()
    uvicorn = uvicorn_proc(cluster.env, tmp, port, "--log-level", "warning")
    uvicorn.ready = ""  # warning level logs nothing on start; wait for the port instead
    # Pages and POSTs go to gunicorn, /events to uvicorn, as in the Procfile.
    web_port = free_port()
    gunicorn = gunicorn_proc(cluster.env, tmp, web_port)

    try:
        uvicorn.start(wait=False)
        gunicorn.start(wait=False)
        wait_for(lambda: port_open(port) and port_open(web_port), timeout=60, what="web servers")
        samples = asyncio.run(
            _roundtrips(
                f"http://127.0.0.1:{port}",
                f"http://127.0.0.1:{web_port}",
                ids,
                {"sessionid": c.cookies["sessionid"].value},
                moves,
                pace_s,
            )
        )
    finally:
        gunicorn.stop()
        uvicorn.stop()
        cluster.close()
    return {
        "battles": n,
        "samples": len(samples),
        "p50_ms": round(pct(samples, 0.5), 1),
        "p95_ms": round(pct(samples, 0.95), 1),
        "max_ms": round(max(samples), 1),
    }


def print_expiries(results: dict) -> None:
    print(
        f"{'scenario':<28}{'battles':>8}{'expected':>9}{'applied':>8}{'dup':>5}{'lost':>5}"
        f"{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'sweep':>7}"
    )
    names = {
        "200": "no faults, 3+1 s",
        "1000": "no faults, 15+5 s",
        "kill": "worker SIGKILL, 3+1 s",
        "redis": "Redis restart, 3+1 s",
    }
    for key, r in results.items():
        print(
            f"{names[key]:<28}{r['battles']:>8}{r['expected']:>9}{r['applied']:>8}"
            f"{r['duplicates']:>5}{r['lost']:>5}{r['p50_ms']:>9}{r['p99_ms']:>9}"
            f"{r['max_ms']:>9}{r['via_sweep']:>7}"
        )


# The clock workers' options: the Procfile's (None) unless --worker-options says otherwise.
WORKER_OPTIONS: list[str] | None = None


def parse_args(argv=None):
    import argparse
    import shlex

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1000, help="battles at 15 s + 5 s")
    parser.add_argument("--quick", action="store_true", help="only the two no-fault expiry runs")
    parser.add_argument(
        "--load",
        type=int,
        default=0,
        metavar="N",
        help="N extra processes burning CPU during the run (a busy server)",
    )
    parser.add_argument(
        "--load-nice",
        type=int,
        default=5,
        help="their nice value: 5 = the Procfile's web and default worker, 0 = no priority",
    )
    parser.add_argument(
        "--worker-options",
        type=shlex.split,
        default=None,
        help="clock worker options instead of the Procfile's, e.g. '-c 2' (the old layout)",
    )
    args = parser.parse_args(argv)
    if args.battles < 1 or args.load < 0:
        parser.error("--battles must be positive and --load not negative")
    return args


def main() -> None:
    global WORKER_OPTIONS
    args = parse_args()
    WORKER_OPTIONS = args.worker_options
    # SIGTERM ends the run like Ctrl-C does: through the finally blocks that stop children.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    call_command("migrate", verbosity=0)
    if left := clear_previous_runs():
        log(f"cleared an earlier run's tables ({left} battles were still running)")
    with busy_processes(args.load, nice=args.load_nice):
        if args.load:
            log(f"{args.load} busy processes at nice {args.load_nice} for the whole run")
        run_all(args)


def run_all(args) -> None:
    n = args.battles
    results = {}
    log("running 200 battles (think 3 s + move 1 s, 4 plies)…")
    results["200"] = run_expiries(200, think_ms=3000, move_ms=1000, plies=4)
    log(f"running {n} battles (think 15 s + move 5 s, 3 plies)…")
    results["1000"] = run_expiries(n, think_ms=15000, move_ms=5000, plies=3)
    if args.quick:
        print_expiries(results)
        nofault = [results["200"], results["1000"]]
        print(
            json.dumps(
                {
                    "battles": n,
                    "load_processes": args.load,
                    "lateness_p99_ms": max(r["p99_ms"] for r in nofault),
                    "lateness_max_ms": max(r["max_ms"] for r in nofault),
                    "lateness_200_p99_ms": results["200"]["p99_ms"],
                    "lateness_1000_p99_ms": results["1000"]["p99_ms"],
                    "duplicates": sum(r["duplicates"] for r in nofault),
                    "lost": sum(r["lost"] for r in nofault),
                }
            )
        )
        return
    log("running 200 battles with a worker SIGKILL…")
    results["kill"] = run_expiries(
        200,
        think_ms=3000,
        move_ms=1000,
        plies=4,
        fault=lambda cluster: cluster.workers[0].kill(restart=True),
    )
    log("running 200 battles with a Redis restart…")
    results["redis"] = run_redis_restart(200)
    log("running move round-trips with 100 battles…")
    rt = run_roundtrip(100, pace_s=5.0)
    log("running back-to-back move round-trips (saturation) with 100 battles…")
    rt_sat = run_roundtrip(100, pace_s=0.0)
    connections.close_all()
    print_expiries(results)
    print(
        f"move round-trip (POST to gunicorn -> opponent's SSE on uvicorn), {rt['battles']} "
        f"battles each moving every 5 s, {rt['samples']} moves: p50 {rt['p50_ms']} ms, "
        f"p95 {rt['p95_ms']} ms, max {rt['max_ms']} ms\n"
        f"  back to back, 8 in flight (saturation), {rt_sat['samples']} moves: "
        f"p50 {rt_sat['p50_ms']} ms, p95 {rt_sat['p95_ms']} ms, max {rt_sat['max_ms']} ms"
    )
    nofault = [results["200"], results["1000"]]
    worst = max(nofault, key=lambda r: r["p99_ms"])
    summary = {
        "battles": results["1000"]["battles"],
        "lateness_p50_ms": max(r["p50_ms"] for r in nofault),
        "lateness_p99_ms": worst["p99_ms"],
        "lateness_max_ms": max(r["max_ms"] for r in nofault),
        "expected": sum(r["expected"] for r in results.values()),
        "applied": sum(r["applied"] for r in results.values()),
        "duplicates": sum(r["duplicates"] for r in results.values()),
        "lost": sum(r["lost"] for r in results.values()),
        "lateness_200_p99_ms": results["200"]["p99_ms"],
        "lateness_1000_p99_ms": results["1000"]["p99_ms"],
        "fault_kill_max_lateness_ms": results["kill"]["max_ms"],
        "fault_redis_max_lateness_ms": results["redis"]["max_ms"],
        "fault_max_lateness_ms": max(results["kill"]["max_ms"], results["redis"]["max_ms"]),
        "move_roundtrip_p50_ms": rt["p50_ms"],
        "move_roundtrip_p95_ms": rt["p95_ms"],
        "move_roundtrip_saturated_p95_ms": rt_sat["p95_ms"],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
