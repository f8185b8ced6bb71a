"""Benchmark: how late the computer's moves are while one user's analyses run (issue 40).

Real processes on their own PostgreSQL database (``<DATABASE_URL name>_bench_bot_lateness``,
dropped, re-created and migrated here) and Redis database 3 with private queue names
(``tests/processes.py``'s cluster: the clock worker, beat, a bots worker and, in the new
layout, an analysis worker, each with the Procfile's options; no niceness, so both
layouts get the same CPU share):

1. One user asks for the most analyses the hourly limit allows (``analysis_runs.PER_HOUR``)
   at once, of finished battles of ``--plies`` random moves (each searches ``plies + 1``
   positions at its budget, 800 ms). The computer's game starts once the first analysis
   runs.
2. A casual quickfire battle against the computer (``--level``, the computer first): this
   process plays the person's side, a random legal move the moment it is their turn,
   until the computer has had ``--moves`` turns or the battle stops.
3. For each of the computer's turns: *delay* = when its move was stored minus when it
   became due (the start, or the person's move stored); *lateness* = delay minus the
   level's search time (``bots.LEVEL_BUDGET_MS``, what the computer is configured to think).
   A turn the clock forfeited counts as a forfeit, its delay the time until the forfeit
   (a lower bound: the move never came). ``--untimed`` plays without a clock, so the
   computer never forfeits and its real delay is measured.

``--layout old`` routes analyses to the bots queue (one worker for both: the layout before
issue 40's fix), ``new`` to their own queue and worker, ``both`` (default) runs old, then new.
About two to three minutes for both with the defaults. Prints a table, then one JSON line
(``new_lateness_p95_ms``, ``old_forfeits``...).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from common import fresh_database  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
BENCH_REDIS = os.environ.get("THUD_BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
os.environ["DATABASE_URL"] = fresh_database("bench_bot_lateness")
os.environ["REDIS_URL"] = BENCH_REDIS

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.analysis import runs as analysis_runs  # noqa: E402
from games.analysis import tasks  # noqa: E402
from games.battles.errors import BattleError  # noqa: E402
from games.battles.play import submit_move  # noqa: E402
from games.bots import moves as bots  # noqa: E402
from games.events import publish  # noqa: E402
from games.models.analysis import BattleAnalysis  # noqa: E402
from games.models.battle import Battle  # noqa: E402
from games.models.history import Move  # noqa: E402
from play import computer  # noqa: E402
from tests.factories import UserFactory  # noqa: E402
from tests.games.analysis_helpers import played_battle, random_moves  # noqa: E402
from tests.processes import ClockCluster, use_broker, wait_for  # noqa: E402

settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cluster_for(layout: str, tmp: Path) -> ClockCluster:
    new = layout == "new"
    cluster = ClockCluster(
        tmp, BENCH_REDIS, connection.settings_dict["NAME"], 1, bots=True, analysis=new
    )
    analysis_queue = cluster.analysis_queue if new else cluster.bots_queue
    for proc in (*cluster.workers, cluster.beat):
        proc.env["THUD_ANALYSIS_QUEUE"] = analysis_queue
    settings.THUD_CLOCK_QUEUE = cluster.queue
    settings.THUD_BOTS_QUEUE = cluster.bots_queue
    settings.THUD_ANALYSIS_QUEUE = analysis_queue
    settings.THUD_EVENTS_PREFIX = cluster.prefix
    settings.REDIS_URL = BENCH_REDIS
    publish._publisher = None
    use_broker(BENCH_REDIS)
    return cluster


def queue_analyses(count: int, plies: int) -> list[int]:
    analyst = UserFactory()
    battles = [played_battle(random_moves(plies, seed=seed)) for seed in range(count)]
    for battle in battles:
        _row, asked = analysis_runs.request_analysis(battle, analyst, now=timezone.now())
        assert asked is analysis_runs.Asked.QUEUED, asked
    for battle in battles:
        assert tasks.publish_analysis(battle.pk, analysis_runs.positions_of(battle))
    return [b.pk for b in battles]


def analysis_counts(ids: list[int]) -> dict[str, int]:
    rows = BattleAnalysis.objects.filter(battle_id__in=ids).values_list("status", flat=True)
    return {s: list(rows).count(s) for s in BattleAnalysis.Status.values}


def play_the_computer(args, rng: random.Random) -> tuple[Battle, datetime, float]:
    """The person's side, played at once on each of their turns: the battle as it ended,
    when it started, and the monotonic time it ended."""
    player = UserFactory()
    started = timezone.now()
    with transaction.atomic():  # the computer's first move is queued on the commit
        battle = computer.start(
            by=player,
            game="thud",
            level=args.level,
            side=computer.COMPUTER_FIRST,
            time_control=computer.UNTIMED if args.untimed else computer.QUICKFIRE,
            now=started,
        )
    end = time.monotonic() + args.timeout
    rules = battle.rules
    while time.monotonic() < end:
        current = Battle.objects.get(pk=battle.pk)
        turns = Move.objects.filter(battle=battle, side=current.bot_side).count()
        if current.status != Battle.Status.RUNNING or turns >= args.moves:
            return current, started, time.monotonic()
        if current.side_to_move == current.bot_side:
            time.sleep(0.02)
            continue
        notation = rng.choice(rules.legal_moves(rules.deserialise(current.board)))
        try:
            submit_move(
                battle.pk,
                side=current.side_to_move,
                version=current.clock_version,
                notation=notation,
                now=timezone.now(),
            )
        except BattleError:  # the clock moved on meanwhile: look again
            continue
    return Battle.objects.get(pk=battle.pk), started, time.monotonic()


def turns_of(battle: Battle, started: datetime) -> list[tuple[float, bool]]:
    """``(delay ms, forfeited)`` of each of the computer's turns."""
    due = started
    found = []
    for move in Move.objects.filter(battle=battle).order_by("ply"):
        if move.side == battle.bot_side:
            delay = (move.submitted_at - due).total_seconds() * 1000
            found.append((delay, move.kind == Move.Kind.FORFEIT))
        due = move.submitted_at
    return found


def run(layout: str, args) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-bot-lateness-{layout}-"))
    cluster = cluster_for(layout, tmp)
    try:
        cluster.start()
        load_before = load()
        ids = queue_analyses(args.analyses, args.plies)
        wait_for(
            lambda: analysis_counts(ids)["running"] == 1, timeout=60, what="an analysis to run"
        )
        log(f"{layout}: {args.analyses} analyses queued, one running; the computer plays…")
        t0 = time.monotonic()
        battle, started, t1 = play_the_computer(args, random.Random(7))
        turns = turns_of(battle, started)
        return {
            "turns": turns,
            "status": battle.status,
            "seconds": t1 - t0,
            "analyses": analysis_counts(ids),
            "load": f"{load_before} -> {load()}",
        }
    finally:
        for proc in cluster.workers:  # the searches would run on: stop them at once
            if proc.name in ("bots", "analysis"):
                proc.kill()
        cluster.close()
        connections.close_all()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", choices=["old", "new", "both"], default="both")
    parser.add_argument("--analyses", type=int, default=analysis_runs.PER_HOUR)
    parser.add_argument("--plies", type=int, default=8, help="moves of each analysed battle")
    parser.add_argument("--moves", type=int, default=8, help="the computer's turns measured")
    parser.add_argument("--level", type=int, choices=bots.LEVELS, default=3)
    parser.add_argument("--timeout", type=float, default=120, help="s per layout, at most")
    parser.add_argument("--untimed", action="store_true", help="no clock: the computer waits")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    layouts = ["old", "new"] if args.layout == "both" else [args.layout]
    budget = bots.LEVEL_BUDGET_MS[args.level]
    results = {layout: run(layout, args) for layout in layouts}

    print(
        f"{args.analyses} analyses of {args.plies + 1} positions queued at once; the computer "
        f"(level {args.level}, search {budget} ms) plays "
        f"{'untimed' if args.untimed else 'quickfire'}; lateness = delay - {budget} ms"
    )
    head = f"{'layout':<7}{'turns':>6}{'forfeit':>8}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}"
    print(head + f"{'late p95':>10}{'analyses done':>15}  battle    load (1/5/15 min)")
    figures = {
        "analyses": args.analyses,
        "positions_each": args.plies + 1,
        "budget_ms": budget,
        "timed": not args.untimed,
    }
    for layout, r in results.items():
        delays = [d for d, _forfeited in r["turns"]]
        forfeits = sum(1 for _d, forfeited in r["turns"] if forfeited)
        late = [max(0.0, d - budget) for d in delays]
        print(
            f"{layout:<7}{len(r['turns']):>6}{forfeits:>8}{pct(delays, 0.5):>9.0f}"
            f"{pct(delays, 0.95):>9.0f}{max(delays, default=0):>9.0f}{pct(late, 0.95):>10.0f}"
            f"{r['analyses']['done']:>15}  {r['status']:<9} {r['load']}"
        )
        figures |= {
            f"{layout}_turns": len(r["turns"]),
            f"{layout}_forfeits": forfeits,
            f"{layout}_delay_p50_ms": round(pct(delays, 0.5)),
            f"{layout}_delay_p95_ms": round(pct(delays, 0.95)),
            f"{layout}_delay_max_ms": round(max(delays, default=0)),
            f"{layout}_lateness_p95_ms": round(pct(late, 0.95)),
            f"{layout}_lateness_mean_ms": round(statistics.fmean(late)) if late else 0,
            f"{layout}_battle_status": r["status"],
        }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
