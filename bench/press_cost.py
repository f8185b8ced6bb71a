"""What one referee press costs the server: CPU ms per "moved" (issue 44).

In this process, with Django's test client (the whole middleware stack and the view, as
gunicorn serves them, less the socket and gunicorn's own parsing; CSRF is not checked by
the test client), on the bench database of bench/clocks.py with real commits: the
on-commit work (the Redis publish, the ``turn_changed`` receivers) runs and is counted.
``--battles`` over-the-board tournament battles at 15 s + 5 s are started, then pressed
"moved" in turn, each with the version its last press answered, ``--presses`` times in
all after a few unmeasured ones.

Per press: this process's CPU (``time.process_time``: the Python side), the CPU of its
PostgreSQL backend (``/proc/<pid>/stat`` of ``pg_backend_pid()``, when the server runs
on this machine), the SQL statements and the wall time. Prints the medians, then one
JSON line. ``--profile``: cProfile over the measured presses, the top functions by
cumulative CPU time (the profile's overhead inflates the CPU figures of that run).

CPU time is what the press costs whatever else the machine does; the wall time is not.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path

# bench/clocks.py sets up Django on its bench database when imported.
from clocks import BENCH_REDIS, clear_previous_runs, log, make_battles
from cpu import cpu_s, read_stats
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import start_battle
from games.models.battle import Battle
from tests.processes import free_port, gunicorn_proc, port_open, wait_for


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--battles", type=int, default=20)
    parser.add_argument("--profile", action="store_true", help="cProfile the presses")
    parser.add_argument("--top", type=int, default=30, help="functions in the profile")
    parser.add_argument(
        "--sort", choices=("cumulative", "tottime"), default="cumulative", help="the profile's"
    )
    parser.add_argument("--sql", action="store_true", help="print the statements of one press")
    parser.add_argument(
        "--live",
        action="store_true",
        help="also against gunicorn (one sync worker, as the Procfile runs it): its CPU",
    )
    args = parser.parse_args(argv)
    if min(args.presses, args.battles) < 1:
        parser.error("counts must be positive")
    return args


def _backend_pid() -> int | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    return pid if Path(f"/proc/{pid}/stat").exists() else None


def _live(args, ids: list[int], versions: dict[int, int], referee) -> dict:
    """The same presses over HTTP to one gunicorn sync worker, one after the other; the
    worker's CPU (and its PostgreSQL backend's) over all of them, per press."""
    import httpx

    port = free_port()
    env = os.environ | {
        "REDIS_URL": BENCH_REDIS,
        "THUD_EVENTS_PREFIX": settings.THUD_EVENTS_PREFIX,
        "DJANGO_DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
    }
    tmp = Path(tempfile.mkdtemp(prefix="bench-press-"))
    web = gunicorn_proc(env, tmp, port, 1)
    web.start(wait=False)
    try:
        wait_for(lambda: port_open(port), timeout=60, what="gunicorn")
        login = Client()
        login.force_login(referee)
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(cookies={"sessionid": login.cookies["sessionid"].value}) as http:
            http.get(f"{base}/battles/referee/{ids[0]}/")
            token = http.cookies.get("csrftoken")
            headers = {"X-CSRFToken": token, "HX-Request": "true"}

            def press(battle_id: int) -> bool:
                url = f"{base}/battles/referee/{battle_id}/moved/"
                r = http.post(url, data={"version": versions[battle_id]}, headers=headers)
                ok = b'name="version" value="%d"' % (versions[battle_id] + 1) in r.content
                versions[battle_id] += ok
                return ok

            for i in range(20):  # unmeasured: the worker imports and compiles
                press(ids[i % len(ids)])
            worker = children_of(web.proc.pid)
            backends = _backends(connection.settings_dict["NAME"])
            cpu0, pg0 = cpu_s(worker), cpu_s(backends)
            wall, refused = [], 0
            for i in range(args.presses):
                t0 = time.perf_counter()
                refused += not press(ids[i % len(ids)])
                wall.append((time.perf_counter() - t0) * 1000)
            cpu1, pg1 = cpu_s(worker), cpu_s(backends)
    finally:
        web.kill()
    return {
        "presses": args.presses,
        "refused": refused,
        "worker_ms": (cpu1 - cpu0) / args.presses * 1000,
        "postgres_ms": (pg1 - pg0) / args.presses * 1000,
        "wall_ms": statistics.median(wall),
    }


def children_of(pid: int) -> list[int]:
    return [s.pid for s in read_stats().values() if s.ppid == pid]


def _backends(db_name: str) -> list[int]:
    """The bench database's backends but this process's own (the worker's, here)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [db_name],
        )
        return [pid for (pid,) in cursor.fetchall()]


def main() -> None:
    args = parse_args()
    call_command("migrate", verbosity=0)
    clear_previous_runs()
    settings.REDIS_URL = BENCH_REDIS
    settings.THUD_EVENTS_PREFIX = f"press-cost-{random.randrange(10**9)}:"
    settings.ALLOWED_HOSTS = ["testserver"]
    # Up to 200 plies each: enough presses before a battle ends at its move limit.
    ids = make_battles(args.battles, think_ms=15_000, move_ms=5_000, plies=400, tag="press")
    battle = Battle.objects.select_related("match__round__tournament").get(pk=ids[0])
    referee = get_user_model().objects.create_user(f"pressref{random.randrange(10**9)}")
    battle.match.round.tournament.referees.add(referee)
    for battle_id in ids:
        start_battle(battle_id, now=timezone.now())
    versions = dict(Battle.objects.filter(pk__in=ids).values_list("pk", "clock_version"))
    client = Client()
    client.force_login(referee)
    urls = {b: reverse("games:referee_action", args=[b, "moved"]) for b in ids}
    backend = _backend_pid()

    def press(battle_id: int) -> bool:
        r = client.post(urls[battle_id], {"version": versions[battle_id]}, HTTP_HX_REQUEST="true")
        accepted = (
            r.status_code == 200
            and b'name="version" value="%d"' % (versions[battle_id] + 1) in r.content
        )
        versions[battle_id] += accepted
        return accepted

    for i in range(min(20, args.presses)):  # unmeasured: templates compiled, caches warm
        press(ids[i % len(ids)])
    py_ms, db_ms, wall_ms, queries = [], [], [], []
    refused = 0
    # CPU time, not wall: a wait for PostgreSQL or Redis is not this process's cost.
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    for i in range(args.presses):
        battle_id = ids[i % len(ids)]
        db0 = cpu_s([backend]) if backend else 0.0
        with CaptureQueriesContext(connection) as captured:
            t0, c0 = time.perf_counter(), time.process_time()
            if profiler:
                profiler.enable()
            accepted = press(battle_id)
            if profiler:
                profiler.disable()
            c1, t1 = time.process_time(), time.perf_counter()
        if backend:
            db_ms.append((cpu_s([backend]) - db0) * 1000)
        refused += not accepted
        py_ms.append((c1 - c0) * 1000)
        wall_ms.append((t1 - t0) * 1000)
        queries.append(len(captured))
    live = _live(args, ids, versions, referee) if args.live else None
    if args.sql:
        for q in captured.captured_queries:
            log(q["sql"][:300])
    med = statistics.median
    print(f"{args.presses} presses over {args.battles} battles, {refused} refused")
    print(
        f"python CPU per press     median {med(py_ms):6.2f} ms  mean {statistics.mean(py_ms):6.2f}"
    )
    if db_ms:
        # The kernel counts in ticks (10 ms): only the mean of many presses means anything.
        print(f"postgres CPU per press   mean   {statistics.mean(db_ms):6.2f} ms (tick-grained)")
    print(f"wall time per press      median {med(wall_ms):6.2f} ms")
    print(f"SQL statements per press median {med(queries):6.0f}     max {max(queries)}")
    if live:
        print(
            f"gunicorn worker CPU per press (live, {live['presses']} presses, "
            f"{live['refused']} refused): mean {live['worker_ms']:6.2f} ms; its postgres "
            f"backend {live['postgres_ms']:.2f} ms; wall median {live['wall_ms']:.2f} ms"
        )
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(args.top)
        log(out.getvalue())
    print(
        json.dumps(
            {
                "press_python_cpu_ms_median": round(med(py_ms), 2),
                "press_postgres_cpu_ms_mean": round(statistics.mean(db_ms), 2) if db_ms else None,
                "press_wall_ms_median": round(med(wall_ms), 2),
                "press_queries_median": med(queries),
                "press_refused": refused,
                "presses": args.presses,
                "press_live_worker_cpu_ms_mean": live and round(live["worker_ms"], 2),
                "press_live_postgres_cpu_ms_mean": live and round(live["postgres_ms"], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
