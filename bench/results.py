"""Benchmark of result entry and the public standings page under concurrent load.

Setup, on its own PostgreSQL database (``<DATABASE_URL name>_bench_results``, dropped,
re-created and migrated here): a Swiss tournament of 200 players with three rounds
played and confirmed, and round 4 published with 100 matches awaiting results. The
site runs under gunicorn (4 sync workers) as a subprocess, as in production.

Load: 20 concurrent clients (threads, each its own logged-in referee session with
httpx) for ``--seconds`` (default 20) per phase, in two phases:

- *realistic*: each client pauses ``--think`` (default 0.5 s) after each request — ten
  times more often than a phone polling the standings every 5 s; the JSON figures
  (``standings_p95_ms`` …) come from this phase;
- *saturation*: no pause at all (closed loop), which measures the most the server does
  on this machine (``saturation_requests_per_s``); latency there is queueing, about
  clients × service time ÷ cores, and the load generator shares the same two cores
  (at nice 10, behind the server).
 Each client owns
five matches of round 4; for each it loads the match page (reading the lock version
from the form), POSTs the survivors (htmx), and in between reads the public standings
page. When a client has entered its matches it confirms those of its neighbour, then
keeps reading standings. Latency is measured per request on the client.

Prints a table, then one JSON line:
``standings_p95_ms, result_entry_p95_ms, requests_per_s, errors`` (and more).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import threading
import time
from pathlib import Path

from django.utils import timezone

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from common import free_port, fresh_database, start_gunicorn  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")

CLIENTS = 20
MATCHES_PER_CLIENT = 5
PASSWORD = "bench-password-123"
SLUG = "bench-open"


os.environ["DATABASE_URL"] = fresh_database("bench_results")
import django  # noqa: E402

django.setup()

import httpx  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.core.management import call_command  # noqa: E402

from tournaments.models.people import Player  # noqa: E402
from tournaments.models.results import ResultVersion  # noqa: E402
from tournaments.models.rounds import Match  # noqa: E402
from tournaments.models.tournament import Entry, Tournament  # noqa: E402
from tournaments.results.final import record_final_result  # noqa: E402
from tournaments.rounds.draw import pair_next_round  # noqa: E402
from tournaments.rounds.play import publish_round  # noqa: E402


def build_tournament() -> tuple[Tournament, list[list[int]]]:
    call_command("migrate", verbosity=0)
    User = get_user_model()
    hashed = make_password(PASSWORD)
    organiser = User.objects.create(username="bench-organiser", password=hashed, is_staff=True)
    tournament = Tournament.objects.create(
        name="Bench Open", slug=SLUG, rounds=6, owner=organiser, pairing_seed=7
    )
    referees = [User(username=f"bench-ref{i}", password=hashed) for i in range(CLIENTS)]
    User.objects.bulk_create(referees)
    tournament.referees.add(*User.objects.filter(username__startswith="bench-ref"))
    players = Player.objects.bulk_create(Player(name=f"Player {i:03d}") for i in range(200))
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, seed=i + 1, checked_in=True)
        for i, p in enumerate(players)
    )
    for number in range(1, 5):
        round_ = pair_next_round(tournament, by=organiser, now=timezone.now())
        publish_round(round_, now=timezone.now())
        if number == 4:
            break
        for k, match in enumerate(round_.matches.filter(player_b__isnull=False)):
            survivors = ((k * 7) % 33, (k * 3) % 9, (k * 11) % 33, (k * 5) % 9)
            record_final_result(
                match,
                survivors=survivors,
                by=organiser,
                source=ResultVersion.Source.IMPORT,
                now=timezone.now(),
            )
    open_ids = list(
        Match.objects.filter(round__tournament=tournament, round__number=4, player_b__isnull=False)
        .order_by("table")
        .values_list("pk", flat=True)
    )
    chunks = [
        open_ids[i * MATCHES_PER_CLIENT : (i + 1) * MATCHES_PER_CLIENT] for i in range(CLIENTS)
    ]
    return tournament, chunks


LOCK_RE = re.compile(r'name="lock_version"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="lock_version"')
VERSION_RE = re.compile(r'name="version_id" value="(\d+)"')


class Client(threading.Thread):
    def __init__(
        self, base: str, index: int, own: list[int], neighbour: list[int], stop_at, think: float
    ):
        super().__init__(daemon=True)
        self.think = think
        self.warm_up = False
        self.cookies: httpx.Cookies | None = None
        self.base, self.index, self.own, self.neighbour = base, index, own, neighbour
        self.stop_at = stop_at
        self.standings_ms: list[float] = []
        self.entry_ms: list[float] = []
        self.confirm_ms: list[float] = []
        self.requests = 0
        self.errors: list[str] = []

    def timed(self, bucket: list[float] | None, method: str, url: str, **kw) -> httpx.Response:
        t0 = time.perf_counter()
        response = self.http.request(method, url, **kw)
        elapsed = (time.perf_counter() - t0) * 1000
        self.requests += 1
        if bucket is not None:
            bucket.append(elapsed)
        if response.status_code >= 400:
            self.errors.append(f"{method} {url} -> {response.status_code}")
        if self.think:
            time.sleep(self.think)
        return response

    def post(self, bucket: list[float], url: str, data: dict) -> None:
        data["csrfmiddlewaretoken"] = self.http.cookies["csrftoken"]
        headers = {"HX-Request": "true", "X-CSRFToken": self.http.cookies["csrftoken"]}
        self.timed(bucket, "POST", url, data=data, headers=headers)

    def lock_version(self, page: str) -> str:
        found = LOCK_RE.search(page)
        if not found:
            raise RuntimeError("no lock_version on the match page")
        return found.group(1) or found.group(2)

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base, timeout=30, cookies=self.cookies) as self.http:
                standings = f"/t/{SLUG}/standings/"
                match_url = f"/referee/t/{SLUG}/matches/%d/"
                work = [("enter", m) for m in self.own] + [("confirm", m) for m in self.neighbour]
                while time.monotonic() < self.stop_at:
                    self.timed(self.standings_ms, "GET", standings)
                    if self.warm_up:
                        self.timed(None, "GET", f"/referee/t/{SLUG}/rounds/4/")
                        self.timed(None, "GET", match_url % self.own[0])
                        continue
                    if not work:
                        continue
                    kind, match_id = work[0]
                    page = self.timed(None, "GET", match_url % match_id).text
                    if kind == "enter":
                        self.post(
                            self.entry_ms,
                            match_url % match_id + "result",
                            {
                                "battle1_first": 12,
                                "battle1_second": 3,
                                "battle2_first": 9,
                                "battle2_second": 4,
                                "lock_version": self.lock_version(page),
                                "enter": "",
                            },
                        )
                        work.pop(0)
                    else:
                        version = VERSION_RE.search(page)
                        if version is None:  # the neighbour has not entered it yet
                            work.append(work.pop(0))
                            continue
                        self.post(
                            self.confirm_ms,
                            match_url % match_id + "confirm",
                            {
                                "version_id": version.group(1),
                                "lock_version": self.lock_version(page),
                                "confirm": "",
                            },
                        )
                        work.pop(0)
        except Exception as exc:  # a crashed client is an error, not a silent gap
            self.errors.append(f"client {self.index}: {exc!r}")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def log_in_all(base: str) -> list[httpx.Cookies]:
    """One session per referee, made once: a login costs a deliberate ~0.5 s of hashing."""
    jars = []
    for i in range(CLIENTS):
        with httpx.Client(base_url=base, timeout=30) as http:
            http.get("/accounts/login/")
            response = http.post(
                "/accounts/login/",
                data={
                    "username": f"bench-ref{i}",
                    "password": PASSWORD,
                    "csrfmiddlewaretoken": http.cookies["csrftoken"],
                },
            )
            if response.status_code != 302:
                raise SystemExit(f"login failed for bench-ref{i}: {response.status_code}")
            jars.append(httpx.Cookies(http.cookies))
    return jars


def run_phase(
    base: str,
    jars: list[httpx.Cookies],
    chunks: list[list[int]],
    seconds: float,
    think: float,
    *,
    warm_up: bool = False,
) -> dict:
    stop_at = time.monotonic() + seconds
    clients = [
        Client(base, i, chunks[i], chunks[(i + 1) % CLIENTS], stop_at, think)
        for i in range(CLIENTS)
    ]
    for c, jar in zip(clients, jars, strict=True):
        c.warm_up = warm_up
        c.cookies = jar
    started = time.perf_counter()
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    wall = time.perf_counter() - started
    return {
        "standings": [x for c in clients for x in c.standings_ms],
        "entries": [x for c in clients for x in c.entry_ms],
        "confirms": [x for c in clients for x in c.confirm_ms],
        "errors": [e for c in clients for e in c.errors],
        "rate": sum(c.requests for c in clients) / wall,
    }


def report(title: str, phase: dict) -> None:
    print(f"-- {title}")
    print(f"{'request':<22}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}")
    for label, key in (
        ("standings page", "standings"),
        ("result entry POST", "entries"),
        ("confirmation POST", "confirms"),
    ):
        values = phase[key]
        if values:
            print(
                f"{label:<22}{len(values):>7}{statistics.median(values):>9.1f}"
                f"{pct(values, 0.95):>9.1f}{max(values):>9.1f}"
            )
    print(f"requests/s: {phase['rate']:.0f}; errors: {len(phase['errors'])}")
    for e in phase["errors"][:10]:
        print("  error:", e)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5)
    args = parser.parse_args()

    t0 = time.perf_counter()
    _, chunks = build_tournament()
    setup_s = time.perf_counter() - t0
    port = free_port()
    server = start_gunicorn(port, workers=4)
    # The clients of a real site are phones, not processes on the server: the load
    # generator steps back (nice 10) so the two cores go to gunicorn and PostgreSQL
    # first, as bench/mixed.py does.
    os.nice(10)
    try:
        base = f"http://127.0.0.1:{port}"
        jars = log_in_all(base)
        # The realistic phase enters and confirms all 100 results; the saturation phase
        # only reads the standings page.
        # Warm every worker (imports, template compilation, connections) on every page
        # the load uses: a cold sync worker stalls ~2.5 s and everything queued behind it.
        run_phase(base, jars, chunks, 5.0, 0.0, warm_up=True)
        real = run_phase(base, jars, chunks, args.seconds, args.think)
        saturated = run_phase(base, jars, [[] for _ in chunks], args.seconds, 0.0)
    finally:
        server.terminate()
        server.wait(10)

    confirmed = Match.objects.filter(
        round__tournament__slug=SLUG, round__number=4, result_status="confirmed"
    ).count()
    versions = ResultVersion.objects.filter(
        match__round__number=4, match__round__tournament__slug=SLUG
    ).count()
    print(f"setup (200 players, 3 rounds confirmed, round 4 published): {setup_s:.1f} s")
    print(f"{CLIENTS} clients, gunicorn 4 sync workers, PostgreSQL, {args.seconds:.0f} s a phase")
    report(f"realistic: {args.think:.2f} s pause after each request", real)
    report("saturation: no pause (closed loop)", saturated)
    print(f"round 4: {confirmed} matches confirmed, {versions} result versions")
    errors = len(real["errors"]) + len(saturated["errors"])
    print(
        json.dumps(
            {
                "clients": CLIENTS,
                "players": 200,
                "think_s": args.think,
                "standings_p50_ms": round(statistics.median(real["standings"]), 1),
                "standings_p95_ms": round(pct(real["standings"], 0.95), 1),
                "result_entry_p95_ms": round(pct(real["entries"], 0.95), 1),
                "confirm_p95_ms": round(pct(real["confirms"], 0.95), 1),
                "requests_per_s": round(real["rate"], 1),
                "saturation_requests_per_s": round(saturated["rate"], 1),
                "saturation_standings_p95_ms": round(pct(saturated["standings"], 0.95), 1),
                "errors": errors,
                "confirmed_matches": confirmed,
                "result_versions": versions,
            }
        )
    )


if __name__ == "__main__":
    main()
