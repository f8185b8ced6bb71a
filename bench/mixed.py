"""Benchmark: the clock and the pages together on one node under a full hall (issues 13, 44).

One node as the Procfile runs it (gunicorn 3 workers and uvicorn at nice 5, the Celery
clock worker at normal priority, beat), on the bench database of bench/clocks.py:
- ``--battles`` (1,000) over-the-board battles at 15 s + 5 s, in which referees press
  "moved" (HTTP POST to gunicorn) at quickfire pace: each turn's move comes after a
  random 2-14 s, and one turn in five nobody moves, so the clock expires it;
- ``--browsers`` (20) clients reading the standings, a round's pairings, the
  tournament page and battle pages back to back (``--reader-pause S``: each waits S
  seconds on average between its reads, as a person reading does);
- ``--spectators`` (200) SSE connections on uvicorn watching random battles;
- ``--hall-screens`` (0) hall screens as ``static/js/hall.js`` runs them: the hall's
  event stream on uvicorn, and on its ``battle`` events the live-battles slide on its
  screen fetched again (``/battles/hall/<slug>/?slide=N``; each screen on a slide of its
  own, the next every 12 s) at most every 700 ms, on ``changed`` the slides
  (``/t/<slug>/hall/?part=slides``) and the battles.
Reported: expiry lateness (applied_at - deadline - grace, from the ClockEvent trail),
page latencies per page (client side), moves accepted / refused, the refused ones by
the reason the server gave (stale, out of turn, finished, ...), and the CPU the server and
this load generator each used a second (they share the machine's cores).

Cost, not only latency (issue 44): every phase also reports the CPU-seconds the kernel
charged to the server's processes (``bench/cpu.py``: gunicorn and its workers, uvicorn,
the clock worker, beat, each summed over its process tree; and PostgreSQL's backends
of the bench database, approximately: a backend that ends mid-phase takes its share
with it). Those hold on a noisy machine where the latencies do not. ``--only KIND`` runs
phases that do one kind of operation each, after an idle phase (the battles running,
nobody pressing, reading or watching: what the clock worker and beat cost anyway):
``press`` (referee presses), ``pages`` (one phase per page kind), ``hall`` (hall screens'
fetches), ``spectators`` (SSE deliveries); ``--cost`` runs all of them. Each phase's
cost per operation is its server CPU less the idle phase's CPU rate over as long, over
the operations done. A press's phase has fewer expiries than the idle one (pressed
turns do not expire), so its net figure is a little low; the spectators' deliveries are
the states the idle phase also publishes.

``--curve`` runs the whole hall at 250, 500, 1,000 and 2,000 battles (or
``--curve-battles``) and prints page p95 and expiry lateness p99 for each.

Quick run: ``bench/mixed.py --battles 200 --seconds 30``. Every child process is
killed at the end, also on Ctrl-C or an error. Prints a table, then one JSON line
with ``mixed_lateness_p99_ms`` and ``mixed_standings_p95_ms`` (and the costs).

The load generator (this process, once the servers run) lowers itself to nice 5, the
web's priority: on a real site the clients are not on the server. Each SSE stream and
each browser has its own httpx client and the referees share 64 clients of one
connection: on one shared pool httpcore's request matching cost the generator a whole
core (``clocks.stream_client``). Referees start from each battle's version in the
database instead of 1,000 page loads at the same moment, and every page is loaded a few
times unmeasured first (cold workers stall by seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import html
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

# bench/clocks.py sets up Django on its bench database when imported.
from clocks import BENCH_REDIS, clear_previous_runs, log, make_battles, pct, stream_client
from cpu import read_stats, tree_cpu_s
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
    free_port,
    gunicorn_proc,
    port_open,
    use_broker,
    uvicorn_proc,
    wait_for,
)

VERSION = re.compile(rb'name="version" value="(\d+)"')
ERROR = re.compile(rb'<p class="error-box" role="alert">(.*?)</p>', re.S)
#: The server's reasons for refusing a press (``games.battles.play``), by how they start;
#: in English, the bench referee's language. The first that matches names it.
REFUSALS = [
    ("lost the write", "The battle changed meanwhile; your move was not applied."),
    ("stale", "The battle changed meanwhile"),
    ("out of turn", "It is not your turn."),
    ("finished", "This battle is over."),
    ("clock stopped", "The clock is stopped."),
    ("too late", "Too late: your time"),
]
PAGE_KINDS = ("standings", "pairings", "tournament", "battle")
#: What each phase does: page kinds read by the browsers, "press", "spectators", "hall".
PHASES: dict[str, frozenset[str]] = {
    "mixed": frozenset({"press", *PAGE_KINDS, "spectators", "hall"}),
    "idle": frozenset(),
    "press": frozenset({"press"}),
    **{kind: frozenset({kind}) for kind in PAGE_KINDS},
    "hall": frozenset({"hall"}),
    "spectators": frozenset({"spectators"}),
}
ONLY = {
    "press": ["press"],
    "pages": list(PAGE_KINDS),
    "hall": ["hall"],
    "spectators": ["spectators"],
}
CURVE = (250, 500, 1000, 2000)
_children: list = []


def _kill_everything() -> None:
    for p in _children:
        with contextlib.suppress(Exception):
            p.kill()


def refusal_reason(content: bytes) -> str:
    """The reason a refused press's panel gives, by name (``REFUSALS``), else its text."""
    found = ERROR.search(content)
    if not found:
        return "no reason shown"
    text = html.unescape(found.group(1).decode()).strip()
    for name, start in REFUSALS:
        if text.startswith(start):
            return name
    return text[:60]


async def _phase(
    args, phase: str, versions: dict[int, int], slug: str, web: str, sse: str, cookies: dict
) -> dict:
    """One phase of ``args.seconds``: what ``PHASES[phase]`` says, then its counts."""
    import httpx

    does = PHASES[phase]
    ids = list(versions)
    pages: dict[str, list[float]] = {k: [] for k in (*PAGE_KINDS, "hall battles", "hall slides")}
    moves = {"accepted": 0, "refused": 0, "errors": 0}
    refused: dict[str, int] = {}
    spectated = [0]
    kinds = [k for k in PAGE_KINDS if k in does]
    end = time.monotonic() + args.seconds

    async def timed(http, kind: str, url: str, **kw) -> None:
        t0 = time.perf_counter()
        r = await http.get(url, **kw)
        if r.status_code == 200:
            pages[kind].append((time.perf_counter() - t0) * 1000)
        else:
            moves["errors"] += 1

    async def browser() -> None:
        urls = {
            "standings": f"{web}/t/{slug}/standings/",
            "pairings": f"{web}/t/{slug}/rounds/1/",
            "tournament": f"{web}/t/{slug}/",
        }
        async with stream_client(timeout=60) as http:
            while time.monotonic() < end:
                if phase == "mixed":  # the mix of issue 13: a battle page one time in four
                    kind = random.choice(PAGE_KINDS[:3])
                    if random.random() < 0.25:
                        kind = "battle"
                else:
                    kind = random.choice(kinds)
                url = urls.get(kind) or f"{web}/battles/{random.choice(ids)}/"
                with contextlib.suppress(httpx.HTTPError):
                    await timed(http, kind, url)
                if args.reader_pause:  # a person reading the page before the next one
                    await asyncio.sleep(random.expovariate(1 / args.reader_pause))

    async def spectator(battle_id: int) -> None:
        with contextlib.suppress(httpx.HTTPError):
            async with (
                stream_client() as http,
                http.stream("GET", f"{sse}/battles/{battle_id}/events/") as r,
            ):
                async for line in r.aiter_lines():
                    if line.startswith("data: "):
                        spectated[0] += 1

    async def hall_screen() -> None:
        """``static/js/hall.js``: the live-battles slide on screen again at most every
        700 ms after a battle event, the slides and the battles after a ``changed`` event.
        Each screen shows a slide of its own, the next one every 12 s (as if it showed
        nothing but live battles: the most a screen fetches)."""
        headers = {"HX-Request": "true"}
        slides = -(-len(ids) // 6)  # games.web.presenters_hall.BATTLES_PER_SLIDE
        first, started_at = random.randrange(slides), time.monotonic()

        def battles_url() -> str:
            shown = (first + int((time.monotonic() - started_at) / 12)) % slides
            return f"{web}/battles/hall/{slug}/?slide={shown}"

        slides_url = f"{web}/t/{slug}/hall/?part=slides"
        pending: list[asyncio.Task] = []  # the fetch waiting its 700 ms (hall.js)
        started: set[asyncio.Task] = set()  # every fetch started, to cancel at the end

        async def battles_soon(http) -> None:
            await asyncio.sleep(0.7)
            pending.clear()
            with contextlib.suppress(httpx.HTTPError):
                await timed(http, "hall battles", battles_url(), headers=headers)

        with contextlib.suppress(httpx.HTTPError):
            async with (
                stream_client(timeout=60) as http,
                stream_client() as events,
                events.stream("GET", f"{sse}/battles/hall/{slug}/events/") as r,
            ):
                try:
                    await timed(http, "hall battles", battles_url(), headers=headers)
                    event = ""
                    async for line in r.aiter_lines():
                        if line.startswith("event: "):
                            event = line[len("event: ") :]
                        elif line.startswith("data") and event == "battle" and not pending:
                            pending.append(asyncio.create_task(battles_soon(http)))
                            started.add(pending[-1])
                        elif line.startswith("data") and event == "changed":
                            await timed(http, "hall slides", slides_url, headers=headers)
                            await timed(http, "hall battles", battles_url(), headers=headers)
                finally:
                    for task in started:  # before their client closes
                        task.cancel()
                    await asyncio.gather(*started, return_exceptions=True)

    async def referee(http, battle_id: int, token: str) -> None:
        page = f"{web}/battles/referee/{battle_id}/"
        # The version the battle had when the phase started: 1,000 referees loading their
        # page at the same moment would be a burst no hall sees, queued in front of every
        # browser.
        version = versions[battle_id]
        while time.monotonic() < end:
            try:
                if version is None:
                    found = VERSION.search((await http.get(page)).content)
                    version = int(found.group(1)) if found else None
                    if version is None:  # finished (no form): nothing left to press
                        return
                # One turn in five nobody moves: the clock expires it.
                think = random.uniform(2, 14) if random.random() < 0.8 else 21
                if time.monotonic() + think >= end:  # the phase ends before this press
                    await asyncio.sleep(max(0.0, end - time.monotonic()))
                    return
                await asyncio.sleep(think)
                r = await http.post(
                    f"{page}moved/",
                    data={"version": version},
                    headers={"X-CSRFToken": token, "HX-Request": "true"},
                )
                found = VERSION.search(r.content)
                if found and int(found.group(1)) == version + 1 and r.status_code == 200:
                    moves["accepted"] += 1
                    version += 1
                else:
                    moves["refused"] += 1  # the turn had expired meanwhile, ...: resync
                    reason = refusal_reason(r.content)
                    refused[reason] = refused.get(reason, 0) + 1
                    version = int(found.group(1)) if found else None
            except httpx.HTTPError:
                moves["errors"] += 1
                await asyncio.sleep(1)

    refs = []
    async with httpx.AsyncClient(timeout=60, cookies=cookies) as first:
        await first.get(f"{web}/battles/referee/{ids[0]}/")
        token = first.cookies.get("csrftoken")
    if "press" in does:
        refs = [
            stream_client(timeout=60, cookies=cookies | {"csrftoken": token}) for _ in range(64)
        ]
    screens = args.hall_screens if "hall" in does else 0
    watching = args.spectators if "spectators" in does else 0
    try:
        end = time.monotonic() + args.seconds
        watchers = [asyncio.create_task(spectator(random.choice(ids))) for _ in range(watching)]
        watchers += [asyncio.create_task(hall_screen()) for _ in range(screens)]
        await asyncio.gather(
            *(browser() for _ in range(args.browsers if kinds else 0)),
            *(referee(refs[i % len(refs)], b, token) for i, b in enumerate(ids) if refs),
            asyncio.sleep(max(0.0, end - time.monotonic())),
        )
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
    finally:
        for client in refs:
            await client.aclose()
    return {"pages": pages, "moves": moves, "refused": refused, "spectated": spectated[0]}


async def _warm(web: str, slug: str, ids: list[int], cookies: dict) -> None:
    """Unmeasured: every page a few times, so each gunicorn worker has imported and
    compiled what it serves (a cold worker's first requests stall by seconds)."""
    import httpx

    async with httpx.AsyncClient(timeout=60, cookies=cookies) as first:
        await first.get(f"{web}/battles/referee/{ids[0]}/")
        for path in ("standings/", "rounds/1/", "", "hall/?part=slides"):
            await asyncio.gather(*(first.get(f"{web}/t/{slug}/{path}") for _ in range(6)))
        await asyncio.gather(*(first.get(f"{web}/battles/{b}/") for b in ids[:6]))
        hall = f"{web}/battles/hall/{slug}/"
        await asyncio.gather(*(first.get(hall, headers={"HX-Request": "true"}) for _ in range(3)))


def _postgres_pids(db_name: str) -> list[int]:
    """The backends of the bench database other than this process's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [db_name],
        )
        return [pid for (pid,) in cursor.fetchall()]


class ServerCpu:
    """The server's CPU-seconds by process group, read at a phase's start and end."""

    def __init__(self, groups: dict[str, list[int]], db_name: str):
        self.groups, self.db_name = groups, db_name

    def read(self) -> dict[str, float]:
        pg = _postgres_pids(self.db_name)
        stats = read_stats()
        cpu = {name: tree_cpu_s(stats, pids) for name, pids in self.groups.items()}
        # Per backend, so that one which ended since the phase began counts nothing.
        cpu |= {f"pg:{pid}": tree_cpu_s(stats, [pid]) for pid in pg}
        return cpu

    @staticmethod
    def spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
        out = {}
        postgres = 0.0
        for name, value in after.items():
            if name.startswith("pg:"):
                postgres += value - before.get(name, 0.0)  # a new backend: all of it
            else:
                out[name] = value - before.get(name, 0.0)
        out["postgres"] = postgres
        return out


def operations(phase: str, hall: dict) -> tuple[str, int]:
    """What one operation of a one-kind phase is, and how many were done."""
    if phase == "press":
        return "press", hall["moves"]["accepted"] + hall["moves"]["refused"]
    if phase in PAGE_KINDS:
        return f"{phase} page", len(hall["pages"][phase])
    if phase == "hall":
        return "hall battles fetch", len(hall["pages"]["hall battles"])
    if phase == "spectators":
        return "SSE delivery", hall["spectated"]
    return "", 0


def run(args, phases: list[str]) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="bench-mixed-"))
    cluster = ClockCluster(tmp, BENCH_REDIS, connection.settings_dict["NAME"], 1)
    _children.extend([*cluster.workers, cluster.beat])
    settings.THUD_CLOCK_QUEUE, settings.THUD_EVENTS_PREFIX = cluster.queue, cluster.prefix
    settings.REDIS_URL = BENCH_REDIS
    use_broker(BENCH_REDIS)
    import games.events.publish

    games.events.publish._publisher = None
    web_port, sse_port = free_port(), free_port()
    web = gunicorn_proc(cluster.env, tmp, web_port, 3, nice=5)
    sse = uvicorn_proc(cluster.env, tmp, sse_port, "--log-level", "warning", nice=5)
    sse.ready = ""
    _children.extend([web, sse])
    try:
        web.start(wait=False)
        sse.start(wait=False)
        cluster.start()
        wait_for(lambda: port_open(web_port) and port_open(sse_port), timeout=60, what="web")
        ids = make_battles(args.battles, think_ms=15_000, move_ms=5_000, plies=200, tag="mixed")
        battle = Battle.objects.select_related("match__round__tournament").get(pk=ids[0])
        tournament = battle.match.round.tournament
        referee = get_user_model().objects.create_user(
            f"mixedref{random.randrange(10**9)}", password="bench-pass-123"
        )
        tournament.referees.add(referee)
        c = Client()
        c.force_login(referee)
        log(f"starting {args.battles} battles…")
        t_start = timezone.now()
        for battle_id in ids:
            start_battle(battle_id, now=timezone.now())
        # The hall's phones are other machines: this load generator runs at the web's
        # priority (nice 5), not above the clock worker it would otherwise starve.
        os.nice(5)
        urls = (f"http://127.0.0.1:{web_port}", f"http://127.0.0.1:{sse_port}")
        cookies = {"sessionid": c.cookies["sessionid"].value}
        asyncio.run(_warm(urls[0], tournament.slug, ids, cookies))
        if phases[0] == "idle":
            # A whole turn first (think + move + grace): the idle phase then sees every
            # battle's expiries at their steady rate, not the quiet before the first ones.
            turn_s = (15_000 + 5_000 + 300) / 1000
            time.sleep(max(0.0, turn_s - (timezone.now() - t_start).total_seconds()))
        server = ServerCpu(
            {
                "web": [web.proc.pid],
                "events": [sse.proc.pid],
                "clock": [w.proc.pid for w in cluster.workers],
                "beat": [cluster.beat.proc.pid],
            },
            connection.settings_dict["NAME"],
        )
        results = {}
        for phase in phases:
            log(f"{phase} for {args.seconds} s…")
            versions = dict(Battle.objects.filter(pk__in=ids).values_list("pk", "clock_version"))
            before, t0, own0 = server.read(), time.monotonic(), time.process_time()
            hall = asyncio.run(_phase(args, phase, versions, tournament.slug, *urls, cookies))
            elapsed = time.monotonic() - t0
            hall["cpu"] = ServerCpu.spent(before, server.read())
            # The clients' own cost, on the same cores as the server's (not in ``cpu``).
            hall["generator_cpu"] = time.process_time() - own0
            hall["seconds"] = elapsed
            results[phase] = hall
        late = [
            (applied - due).total_seconds() * 1000
            for applied, due in ClockEvent.objects.filter(
                battle_id__in=ids, kind=clock.TURN_EXPIRED, due_at__gte=t_start
            ).values_list("applied_at", "due_at")
        ]
        return {"phases": results, "lateness": late}
    finally:
        cluster.close()
        _kill_everything()
        connections.close_all()


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--browsers", type=int, default=20)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument(
        "--reader-pause",
        type=float,
        default=0.0,
        help="mean seconds a browser waits between its reads (0: back to back)",
    )
    parser.add_argument("--hall-screens", type=int, default=0, help="hall screens (hall.js)")
    parser.add_argument("--seconds", type=int, default=90, help="how long each phase plays")
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--only",
        choices=sorted(ONLY),
        help="after an idle phase, only this kind of operation: its server CPU per operation",
    )
    what.add_argument("--cost", action="store_true", help="--only each kind, one idle phase")
    what.add_argument("--curve", action="store_true", help="the whole hall at several sizes")
    what.add_argument("--idle", action="store_true", help="only the idle phase")
    parser.add_argument(
        "--curve-battles", type=lambda s: [int(n) for n in s.split(",")], default=list(CURVE)
    )
    args = parser.parse_args(argv)
    if (
        min(args.battles, args.browsers, args.seconds) < 1
        or min(args.spectators, args.reader_pause) < 0
    ):
        parser.error("counts and --seconds must be positive")
    if args.only == "hall" and args.hall_screens < 1:
        parser.error("--only hall needs --hall-screens")
    return args


def phases_of(args) -> list[str]:
    if args.idle:
        return ["idle"]
    if args.only:
        return ["idle", *ONLY[args.only]]
    if args.cost:
        kinds = ["press", "pages", "spectators", *(["hall"] if args.hall_screens else [])]
        return ["idle", *(p for kind in kinds for p in ONLY[kind])]
    return ["mixed"]


def print_costs(args, phases: dict) -> dict:
    """The table of server CPU per phase, and per operation less the idle rate."""
    idle = phases.get("idle")
    idle_rate = sum(idle["cpu"].values()) / idle["seconds"] if idle else 0.0
    print(
        f"{'phase':<12}{'s':>5}{'web':>8}{'events':>8}{'clock':>8}{'beat':>7}{'pg':>7}"
        f"{'total':>8}{'gen':>7}  per operation (CPU ms, less idle; gen: the load generator's)"
    )
    figures = {}
    for phase, r in phases.items():
        cpu = r["cpu"]
        total = sum(cpu.values())
        line = (
            f"{phase:<12}{r['seconds']:>5.0f}{cpu['web']:>8.2f}{cpu['events']:>8.2f}"
            f"{cpu['clock']:>8.2f}{cpu['beat']:>7.2f}{cpu['postgres']:>7.2f}{total:>8.2f}"
            f"{r['generator_cpu']:>7.2f}"
        )
        what, count = operations(phase, r)
        if count:
            net = total - idle_rate * r["seconds"]
            per = net / count * 1000
            line += f"  {per:7.2f} ms per {what} ({count} done, {total / count * 1000:.2f} gross)"
            figures[f"cpu_ms_per_{what.replace(' ', '_')}"] = round(per, 2)
        elif phase == "idle":
            line += f"  idle: {idle_rate:.2f} CPU-s per s"
            figures["cpu_idle_s_per_s"] = round(idle_rate, 3)
        print(line)
    return figures


def print_hall(args, r: dict, late: list[float]) -> None:
    pages, moves = r["pages"], r["moves"]
    print(
        f"{args.battles} battles, {args.browsers} browsers, {args.spectators} spectators, "
        f"{args.hall_screens} hall screens, {args.seconds} s: moves accepted "
        f"{moves['accepted']}, refused {moves['refused']}, errors {moves['errors']}; "
        f"{r['spectated']} states to spectators"
    )
    # Back-to-back readers wait, on average, as long as their number over the pages served
    # a second (Little's law): their p95 is the server's throughput as much as a page's cost.
    read = sum(len(pages[k]) for k in PAGE_KINDS)
    pause = f", each pausing {args.reader_pause:g} s on average" if args.reader_pause else ""
    print(f"pages read: {read} ({read / args.seconds:.1f} a second{pause})")
    # What the machine had: the server and this load generator share its cores.
    server, generator = sum(r["cpu"].values()), r["generator_cpu"]
    requests = sum(len(v) for v in pages.values()) + sum(moves.values())
    print(
        f"CPU per second: server {server / r['seconds']:.2f}, load generator "
        f"{generator / r['seconds']:.2f}, of {os.cpu_count()} cores; the generator's "
        f"{generator / max(1, requests) * 1000:.2f} ms per request ({requests}, SSE aside)"
    )
    if r["refused"]:
        reasons = ", ".join(f"{n} {why}" for why, n in sorted(r["refused"].items()))
        print(f"moves refused: {reasons}")
    print(f"{'figure':<22}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, values in [("expiry lateness", late), *pages.items()]:
        if not values and name != "expiry lateness":
            continue
        print(
            f"{name:<22}{len(values):>7}{pct(values, 0.5):>9.1f}{pct(values, 0.95):>9.1f}"
            f"{pct(values, 0.99):>9.1f}{max(values, default=0):>9.1f}"
        )


def main() -> None:
    args = parse_args()
    atexit.register(_kill_everything)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    call_command("migrate", verbosity=0)
    if args.curve:
        rows = []
        for n in args.curve_battles:
            clear_previous_runs()
            args.battles = n
            r = run(args, ["mixed"])
            mixed = r["phases"]["mixed"]
            page_p95 = pct([v for k in PAGE_KINDS for v in mixed["pages"][k]], 0.95)
            rows.append((n, page_p95, pct(r["lateness"], 0.99), sum(mixed["cpu"].values())))
            print_hall(args, mixed, r["lateness"])
        print(f"{'battles':>8}{'page p95 ms':>13}{'lateness p99 ms':>17}{'server CPU s':>14}")
        for n, p95, p99, cpu in rows:
            print(f"{n:>8}{p95:>13.1f}{p99:>17.1f}{cpu:>14.1f}")
        curve = {
            str(n): {"page_p95_ms": round(p, 1), "lateness_p99_ms": round(q, 1)}
            for n, p, q, _ in rows
        }
        print(json.dumps({"mixed_curve": curve, "mixed_seconds": args.seconds}))
        return
    clear_previous_runs()
    r = run(args, phases_of(args))
    late, phases = r["lateness"], r["phases"]
    figures = print_costs(args, phases)
    mixed = phases.get("mixed")
    if mixed is None:
        for phase, result in phases.items():
            if result["refused"]:
                print(f"{phase}: moves refused {result['refused']}")
            for kind, times in result["pages"].items():
                if times:  # the latencies too: the cost phases' pages (hall battles' p95)
                    print(
                        f"{phase}: {kind} {len(times)} p50 {pct(times, 0.5):.1f} ms p95 "
                        f"{pct(times, 0.95):.1f} ms max {max(times):.1f} ms"
                    )
                    figures[f"{phase}_{kind.replace(' ', '_')}_p95_ms"] = round(pct(times, 0.95), 1)
        print(json.dumps({"mixed_battles": args.battles, "mixed_seconds": args.seconds} | figures))
        return
    print_hall(args, mixed, late)
    pages, moves = mixed["pages"], mixed["moves"]
    print(
        json.dumps(
            {
                "mixed_battles": args.battles,
                "mixed_expiries": len(late),
                "mixed_lateness_p99_ms": round(pct(late, 0.99), 1),
                "mixed_lateness_max_ms": round(max(late, default=0), 1),
                "mixed_standings_p95_ms": round(pct(pages["standings"], 0.95), 1),
                "mixed_pairings_p95_ms": round(pct(pages["pairings"], 0.95), 1),
                "mixed_battle_page_p95_ms": round(pct(pages["battle"], 0.95), 1),
                "mixed_hall_battles_p95_ms": round(pct(pages["hall battles"], 0.95), 1),
                "mixed_pages_per_s": round(
                    sum(len(pages[k]) for k in PAGE_KINDS) / args.seconds, 1
                ),
                "mixed_reader_pause_s": args.reader_pause,
                "mixed_moves_accepted": moves["accepted"],
                "mixed_moves_refused": mixed["refused"],
                "mixed_errors": moves["errors"],
                "mixed_server_cpu_s": round(sum(mixed["cpu"].values()), 2),
                "mixed_generator_cpu_s": round(mixed["generator_cpu"], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
