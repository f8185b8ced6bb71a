"""Benchmark: the clock and the pages together on one node under a full hall (issue 13).

One node as the Procfile runs it (gunicorn 3 workers and uvicorn at nice 5, the Celery
clock worker at normal priority, beat), on the bench database of bench/clocks.py:
- ``--battles`` (1,000) over-the-board battles at 15 s + 5 s, in which referees press
  "moved" (HTTP POST to gunicorn) at quickfire pace: each turn's move comes after a
  random 2-14 s, and one turn in five nobody moves, so the clock expires it;
- ``--browsers`` (20) clients reading the standings, a round's pairings, the
  tournament page and battle pages back to back;
- ``--spectators`` (200) SSE connections on uvicorn watching random battles.
Reported: expiry lateness (applied_at - deadline - grace, from the ClockEvent trail),
page latencies per page (client side), moves accepted / refused.

The load generator (this process, once the servers run) lowers itself to nice 5, the
web's priority: on a real site the clients are not on the server. Each SSE stream and
each browser has its own httpx client and the referees share 64 clients of one
connection: on one shared pool httpcore's request matching cost the generator a whole
core (``clocks.stream_client``). Referees start from
each battle's version in the database instead of 1,000 page loads at the same moment,
and every page is loaded a few times unmeasured first (cold workers stall by seconds).

Quick run: ``bench/mixed.py --battles 200 --seconds 30``. Every child process is
killed at the end, also on Ctrl-C or an error. Prints a table, then one JSON line
with ``mixed_lateness_p99_ms`` and ``mixed_standings_p95_ms``.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
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
from tests.games.conftest import (
    ClockCluster,
    _use_broker,
    free_port,
    gunicorn_proc,
    port_open,
    uvicorn_proc,
    wait_for,
)

VERSION = re.compile(rb'name="version" value="(\d+)"')
_children: list = []


def _kill_everything() -> None:
    for p in _children:
        with contextlib.suppress(Exception):
            p.kill()


async def _hall(
    args, versions: dict[int, int], slug: str, web: str, sse: str, cookies: dict
) -> dict:
    import httpx

    ids = list(versions)
    end = time.monotonic() + args.seconds
    pages: dict[str, list[float]] = {"standings": [], "pairings": [], "tournament": []}
    pages["battle"] = []
    moves = {"accepted": 0, "refused": 0, "errors": 0}
    spectated = [0]

    async def timed(http, kind: str, url: str) -> None:
        t0 = time.perf_counter()
        r = await http.get(url)
        if r.status_code == 200:
            pages[kind].append((time.perf_counter() - t0) * 1000)
        else:
            moves["errors"] += 1

    async def browser() -> None:
        urls = [
            ("standings", f"{web}/t/{slug}/standings/"),
            ("pairings", f"{web}/t/{slug}/rounds/1/"),
            ("tournament", f"{web}/t/{slug}/"),
        ]
        async with stream_client(timeout=60) as http:
            while time.monotonic() < end:
                kind, url = random.choice(urls)
                if random.random() < 0.25:
                    kind, url = "battle", f"{web}/battles/{random.choice(ids)}/"
                with contextlib.suppress(httpx.HTTPError):
                    await timed(http, kind, url)

    async def spectator(battle_id: int) -> None:
        with contextlib.suppress(httpx.HTTPError):
            async with (
                stream_client() as http,
                http.stream("GET", f"{sse}/battles/{battle_id}/events/") as r,
            ):
                async for line in r.aiter_lines():
                    if line.startswith("data: "):
                        spectated[0] += 1

    async def referee(http, battle_id: int, token: str) -> None:
        page = f"{web}/battles/referee/{battle_id}/"
        # The version the battle started with: 1,000 referees loading their page at the
        # same moment would be a burst no hall sees, queued in front of every browser.
        version = versions[battle_id]
        while time.monotonic() < end:
            try:
                if version is None:
                    found = VERSION.search((await http.get(page)).content)
                    version = int(found.group(1)) if found else None
                    if version is None:  # finished (no form): nothing left to press
                        return
                # One turn in five nobody moves: the clock expires it.
                await asyncio.sleep(random.uniform(2, 14) if random.random() < 0.8 else 21)
                r = await http.post(
                    f"{page}moved/",
                    data={"version": version},
                    headers={"X-CSRFToken": token, "HX-Request": "true"},
                )
                found = VERSION.search(r.content)
                if found and int(found.group(1)) == version + 1:
                    moves["accepted"] += 1
                    version += 1
                else:
                    moves["refused"] += 1  # the turn had expired meanwhile: resync
                    version = int(found.group(1)) if found else None
            except httpx.HTTPError:
                moves["errors"] += 1
                await asyncio.sleep(1)

    # Each stream and each browser its own client, the referees 64 clients of one
    # connection: one shared pool would cost this process a core (``stream_client``).
    async with httpx.AsyncClient(timeout=60, cookies=cookies) as first:
        await first.get(f"{web}/battles/referee/{ids[0]}/")
        token = first.cookies.get("csrftoken")
        # Unmeasured: every page a few times, so each gunicorn worker has imported and
        # compiled what it serves (a cold worker's first requests stall by seconds).
        for path in ("standings/", "rounds/1/", ""):
            await asyncio.gather(*(first.get(f"{web}/t/{slug}/{path}") for _ in range(6)))
        await asyncio.gather(*(first.get(f"{web}/battles/{b}/") for b in ids[:6]))
    refs = [stream_client(timeout=60, cookies=cookies | {"csrftoken": token}) for _ in range(64)]
    try:
        end = time.monotonic() + args.seconds
        watchers = [
            asyncio.create_task(spectator(random.choice(ids))) for _ in range(args.spectators)
        ]
        await asyncio.gather(
            *(browser() for _ in range(args.browsers)),
            *(referee(refs[i % len(refs)], b, token) for i, b in enumerate(ids)),
        )
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
    finally:
        for client in refs:
            await client.aclose()
    return {"pages": pages, "moves": moves, "spectated": spectated[0]}


def run(args) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="bench-mixed-"))
    cluster = ClockCluster(tmp, BENCH_REDIS, connection.settings_dict["NAME"], 1)
    _children.extend([*cluster.workers, cluster.beat])
    settings.THUD_CLOCK_QUEUE, settings.THUD_EVENTS_PREFIX = cluster.queue, cluster.prefix
    settings.REDIS_URL = BENCH_REDIS
    _use_broker(BENCH_REDIS)
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
        log(f"hall for {args.seconds} s…")
        versions = dict(Battle.objects.filter(pk__in=ids).values_list("pk", "clock_version"))
        # The hall's phones are other machines: this load generator runs at the web's
        # priority (nice 5), not above the clock worker it would otherwise starve.
        os.nice(5)
        hall = asyncio.run(
            _hall(
                args,
                versions,
                tournament.slug,
                f"http://127.0.0.1:{web_port}",
                f"http://127.0.0.1:{sse_port}",
                {"sessionid": c.cookies["sessionid"].value},
            )
        )
        late = [
            (applied - due).total_seconds() * 1000
            for applied, due in ClockEvent.objects.filter(
                battle_id__in=ids, kind=clock.TURN_EXPIRED, due_at__gte=t_start
            ).values_list("applied_at", "due_at")
        ]
        return hall | {"lateness": late}
    finally:
        cluster.close()
        _kill_everything()


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--browsers", type=int, default=20)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=90, help="how long the hall plays")
    args = parser.parse_args(argv)
    if min(args.battles, args.browsers, args.seconds) < 1 or args.spectators < 0:
        parser.error("counts and --seconds must be positive")
    return args


def main() -> None:
    args = parse_args()
    atexit.register(_kill_everything)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    call_command("migrate", verbosity=0)
    clear_previous_runs()
    r = run(args)
    connections.close_all()
    late, pages, moves = r["lateness"], r["pages"], r["moves"]
    print(
        f"{args.battles} battles, {args.browsers} browsers, {args.spectators} spectators, "
        f"{args.seconds} s: moves accepted {moves['accepted']}, refused {moves['refused']}, "
        f"errors {moves['errors']}; {r['spectated']} states to spectators"
    )
    print(f"{'figure':<22}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, values in [("expiry lateness", late), *pages.items()]:
        print(
            f"{name:<22}{len(values):>7}{pct(values, 0.5):>9.1f}{pct(values, 0.95):>9.1f}"
            f"{pct(values, 0.99):>9.1f}{max(values, default=0):>9.1f}"
        )
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
                "mixed_moves_accepted": moves["accepted"],
                "mixed_errors": moves["errors"],
            }
        )
    )


if __name__ == "__main__":
    main()
