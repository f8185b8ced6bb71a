"""Benchmark of the archive import job (issue 40): its time and memory by size, and the
home page's latency while three imports run through the real upload.

Set-up, on its own PostgreSQL database (``<DATABASE_URL name>_bench_archive_imports``,
dropped, re-created and migrated here): archives written as ``export_tournament`` writes
them (the tournament part of a real export; entries and rounds generated): ``--players``
players (100, 1,000, 5,000, ...) with no rounds (as the issue's 2 MB, 5,000-player file),
and one of 5,000 players with 5 finished rounds of confirmed results.

Timed, each in a fresh subprocess (so its peak resident memory is its own): the job as the
default worker runs it (``jobs.run_import``: read and check, then write in one
transaction), after ``read_archive`` alone is timed. Memory: the subprocess's peak RSS
(``ru_maxrss``) and its growth over the RSS after ``django.setup()``.

Then, on gunicorn with 3 workers and a Celery worker on a default queue of its own (both
as the Procfile runs them: ``nice -n 5``, the worker ``-c 2``): ``GET /`` one after the
other, idle, then while three 5,000-player archives are uploaded at once through the
upload page (the POSTs timed) and imported by the worker.

The size limit (``settings.MAX_ARCHIVE_BYTES``) comes from the slowest rate per byte
measured here: what the job does in a minute.

Prints a table, then one JSON line (``import_5000_s``, ``peak_rss_5000_mb``,
``home_p95_during_imports_ms``, ``bytes_per_minute``, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from common import fresh_database  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")

CHILD = "--child" in sys.argv
if not CHILD:
    os.environ["DATABASE_URL"] = fresh_database("bench_archive_imports")

import django  # noqa: E402

django.setup()

import httpx  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from tests.processes import (  # noqa: E402
    VENV_BIN,
    Proc,
    free_port,
    gunicorn_proc,
    port_open,
    procfile_env,
    procfile_options,
    wait_for,
)
from tournaments.archive.document import build_document, dumps  # noqa: E402
from tournaments.archive.jobs import queue_import, run_import  # noqa: E402
from tournaments.archive.validation import read_archive  # noqa: E402
from tournaments.models.imports import ArchiveImport  # noqa: E402
from tournaments.models.tournament import Tournament  # noqa: E402
from tournaments.permissions.roles import ORGANISERS_GROUP  # noqa: E402

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


class Rollback(Exception):
    pass


def tournament_part() -> dict:
    """The tournament part of a real export (a tournament created and rolled back)."""
    try:
        with transaction.atomic():
            t = Tournament.objects.create(name="Bench Archive", slug="bench-archive", rounds=5)
            part = build_document(t, now=timezone.now())
            raise Rollback
    except Rollback:
        pass
    return part


def at(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat()


def document(template: dict, players: int, rounds: int) -> dict:
    doc = json.loads(json.dumps(template))
    doc["tournament"]["rated"] = False
    doc["entries"] = [
        {
            "key": k,
            "player": {
                "name": f"Bench Player {k:05d}",
                "club": f"Club {k % 97}",
                "country": "GB",
                "rating": 1000 + k % 1500,
                "username": None,
            },
            "seed": k,
            "checked_in": True,
            "checked_in_at": at(0),
            "withdrawn_from_round": None,
            "late_from_round": None,
            "initial_points": 0,
            "knockout_seed": None,
            "absences": [],
            "changes": [],
        }
        for k in range(1, players + 1)
    ]
    doc["rounds"] = []
    for n in range(1, rounds + 1):
        order = list(range(n, players + 1)) + list(range(1, n))
        matches = []
        for table in range(1, players // 2 + 1):
            a, b = order[2 * table - 2], order[2 * table - 1]
            matches.append(
                {
                    "table": table,
                    "a": a,
                    "b": b,
                    "flags": [],
                    "result_status": "confirmed",
                    "lock_version": 2,
                    "play_started_at": None,
                    "confirmed_version": 1,
                    "versions": [
                        {
                            "number": 1,
                            "game": doc["tournament"]["game"],
                            "result": [table % 30, table % 8, (a + b) % 30, n % 8],
                            "source": "referee",
                            "kind": "entry",
                            "status": "confirmed",
                            "reason": "",
                            "entered_by": "bench-referee",
                            "entered_at": at(60 * n + 30),
                            "confirmed_by": "bench-referee-2",
                            "confirmed_at": at(60 * n + 31),
                        }
                    ],
                }
            )
        doc["rounds"].append(
            {
                "number": n,
                "stage": "main",
                "status": "finished",
                "seed": n,
                "created_at": at(60 * n),
                "published_at": at(60 * n + 1),
                "finished_at": at(60 * n + 50),
                "timer_started_at": None,
                "timer_minutes": None,
                "matches": matches,
            }
        )
    return doc


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def child(path: str, owner_id: int) -> None:
    """One import job, as the worker runs it; prints its figures as JSON."""
    data = Path(path).read_bytes()
    base = rss_mb()
    t0 = time.perf_counter()
    read_archive(data)
    read_s = time.perf_counter() - t0
    job = queue_import(
        data,
        file_name=Path(path).name,
        slug=f"bench-{uuid.uuid4().hex[:8]}",
        language="en",
        by=get_user_model().objects.get(pk=owner_id),
        now=timezone.now(),
    )
    t0 = time.perf_counter()
    outcome = run_import(job.pk, clock=timezone.now)
    job_s = time.perf_counter() - t0
    assert outcome.startswith("imported"), outcome
    print(json.dumps({"read_s": read_s, "job_s": job_s, "base_mb": base, "peak_mb": rss_mb()}))


def measure(path: Path, owner_id: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path), str(owner_id)],
        check=True,
        capture_output=True,
        text=True,
        env=os.environ,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(ms: list[float]) -> dict:
    return {
        "n": len(ms),
        "median": statistics.median(ms),
        "p95": percentile(ms, 0.95),
        "max": max(ms),
    }


def home_gets(base: str, stop: threading.Event, samples: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=60) as http:
        while not stop.is_set():
            t0 = time.perf_counter()
            assert http.get("/").status_code == 200
            samples.append((time.perf_counter() - t0) * 1000)


def upload(base: str, session: str, path: Path, slug: str, took: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=120, cookies={"sessionid": session}) as http:
        form = http.get("/manage/import/").text
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
        t0 = time.perf_counter()
        response = http.post(
            "/manage/import/",
            data={"csrfmiddlewaretoken": token, "slug": slug},
            files={"file": (path.name, path.read_bytes(), "application/json")},
        )
        took.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 302, response.status_code


def under_load(path: Path, owner, tmp: Path, idle_gets: int) -> dict:
    """Idle ``GET /``, then ``GET /`` while three uploads of ``path`` are imported."""
    queue = f"bench-archive-{uuid.uuid4().hex[:8]}"
    env = os.environ | {"THUD_CELERY_DEFAULT_QUEUE": queue, "LOG_LEVEL": "WARNING"}
    env |= {"DJANGO_DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONUNBUFFERED": "1"}
    worker_argv = ["nice", "-n", "5", str(VENV_BIN / "celery"), "-A", "thud_site", "worker"]
    worker_argv += ["-Q", queue, *procfile_options("worker"), "-n", f"{queue}@%h", "-l", "INFO"]
    worker = Proc("worker", worker_argv, env | procfile_env("worker"), tmp, "ready.")
    port = free_port()
    web = gunicorn_proc(env, tmp, port, workers=3, nice=5)
    client = Client()
    client.force_login(owner)
    session = client.cookies["sessionid"].value
    base = f"http://127.0.0.1:{port}"
    try:
        worker.start()
        web.start(wait=False)
        wait_for(lambda: port_open(port), timeout=120, what="gunicorn")
        with httpx.Client(base_url=base, timeout=60) as http:
            for _ in range(5):  # warm the three workers
                http.get("/")
            idle = []
            for _ in range(idle_gets):
                t0 = time.perf_counter()
                http.get("/")
                idle.append((time.perf_counter() - t0) * 1000)
        before = set(ArchiveImport.objects.values_list("pk", flat=True))
        stop, busy, posts = threading.Event(), [], []
        sampler = threading.Thread(target=home_gets, args=(base, stop, busy))
        sampler.start()
        t0 = time.perf_counter()
        uploads = [
            threading.Thread(target=upload, args=(base, session, path, f"loaded-{n}", posts))
            for n in range(3)
        ]
        for u in uploads:
            u.start()
        for u in uploads:
            u.join()

        def over() -> bool:
            jobs = ArchiveImport.objects.exclude(pk__in=before)
            return jobs.count() == 3 and not jobs.filter(state__in=["queued", "running"]).exists()

        wait_for(over, timeout=900, interval=0.5, what="the three imports")
        wall_s = time.perf_counter() - t0
        stop.set()
        sampler.join()
    finally:
        web.stop()
        worker.stop()
    jobs = list(ArchiveImport.objects.exclude(pk__in=before).order_by("pk"))
    assert all(j.state == "done" for j in jobs), [(j.state, j.error) for j in jobs]
    return {
        "idle": summary(idle),
        "busy": summary(busy),
        "post_ms": posts,
        "wall_s": wall_s,
        "job_s": [(j.finished_at - j.started_at).total_seconds() for j in jobs],
        "waited_s": [(j.started_at - j.created_at).total_seconds() for j in jobs],
    }


def main() -> None:
    if CHILD:
        child(sys.argv[2], int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="100,1000,5000,10000,20000")
    parser.add_argument(
        "--rounds-at", type=int, default=5000, help="players of the one with rounds"
    )
    parser.add_argument("--idle-gets", type=int, default=100)
    parser.add_argument("--loaded", type=int, default=5000, help="players of each loaded import")
    parser.add_argument("--no-load", action="store_true", help="skip the gunicorn part")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench-organiser", password="bench-pass-123")
    owner.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    template = tournament_part()
    sizes = [(int(p), 0) for p in args.players.split(",")] + [(args.rounds_at, 5)]
    sizes += [] if (args.loaded, 0) in sizes or args.no_load else [(args.loaded, 0)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        files = {}
        for players, rounds in sizes:
            path = tmp / f"archive-{players}-{rounds}.json"
            path.write_text(dumps(document(template, players, rounds)), encoding="utf-8")
            files[(players, rounds)] = path
            figures = measure(path, owner.pk)
            rows.append({"players": players, "rounds": rounds, "bytes": path.stat().st_size})
            rows[-1].update(figures)
        load = (
            None
            if args.no_load
            else under_load(files[(args.loaded, 0)], owner, tmp, args.idle_gets)
        )

    print(f"PostgreSQL {connection.pg_version}; load average {os.getloadavg()[0]:.2f}")
    print(
        f"{'players':>8}{'rounds':>7}{'MB':>7}{'read s':>8}{'job s':>8}"
        f"{'base MB':>9}{'peak MB':>9}{'MB/min':>8}"
    )
    for r in rows:
        per_minute = r["bytes"] / r["job_s"] * 60 / 1e6
        print(
            f"{r['players']:>8,}{r['rounds']:>7}{r['bytes'] / 1e6:>7.2f}{r['read_s']:>8.2f}"
            f"{r['job_s']:>8.2f}{r['base_mb']:>9.0f}{r['peak_mb']:>9.0f}{per_minute:>8.1f}"
        )
    # Per byte, small files pay the fixed costs: the rate of the big ones sets the limit.
    big = [r for r in rows if r["players"] >= 1000] or rows
    slowest = min(r["bytes"] / r["job_s"] for r in big)
    result = {
        f"import_{r['players']}{'_r' + str(r['rounds']) if r['rounds'] else ''}_s": round(
            r["job_s"], 2
        )
        for r in rows
    }
    result |= {
        f"peak_rss_{r['players']}{'_r' + str(r['rounds']) if r['rounds'] else ''}_mb": round(
            r["peak_mb"]
        )
        for r in rows
    }
    result["bytes_per_minute"] = round(slowest * 60)
    if load is not None:
        print(
            f"GET / (ms)  idle: median {load['idle']['median']:.0f}, p95 {load['idle']['p95']:.0f}, "
            f"max {load['idle']['max']:.0f} ({load['idle']['n']} requests)"
        )
        print(
            f"GET / (ms)  three {args.loaded:,}-player imports: median {load['busy']['median']:.0f}, "
            f"p95 {load['busy']['p95']:.0f}, max {load['busy']['max']:.0f} "
            f"({load['busy']['n']} requests over {load['wall_s']:.1f} s)"
        )
        print(
            "uploads (POST, ms): "
            + ", ".join(f"{ms:.0f}" for ms in load["post_ms"])
            + "; jobs (s, waited + ran): "
            + ", ".join(
                f"{w:.1f} + {s:.1f}" for w, s in zip(load["waited_s"], load["job_s"], strict=True)
            )
        )
        result |= {
            "home_median_idle_ms": round(load["idle"]["median"], 1),
            "home_p95_idle_ms": round(load["idle"]["p95"], 1),
            "home_median_during_imports_ms": round(load["busy"]["median"], 1),
            "home_p95_during_imports_ms": round(load["busy"]["p95"], 1),
            "home_max_during_imports_ms": round(load["busy"]["max"], 1),
            "upload_post_max_ms": round(max(load["post_ms"]), 1),
            "three_imports_wall_s": round(load["wall_s"], 1),
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
