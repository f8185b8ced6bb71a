"""The cost of "the referee clock cannot run without its referee" (issue 25) at hall scale.

On a fresh database of its own (``<DATABASE_URL name>_bench_referee``):

1. The tick's look for offline referee pages (``games.live.referees.check``) with N
   running over-the-board battles whose pages all beat (nothing offline): its median and
   p99 time, its statement count and its plan (the partial index ``battle_referee_seen``).
   Then the whole tick with nothing due (``games.live.sweep.sweep``), with and without
   that look, and one tick that pauses K battles whose pages all went away at once.
2. The beat itself: POSTs of the beat endpoint to gunicorn (as the Procfile runs it, 2
   sync workers) by one referee client, back to back: median and p95 request time, and
   the SQL statements one beat costs (counted in-process with the test client, after the
   session's first request).

Run ``.venv/bin/python bench/referee_beats.py [--battles N] [--offline K] [--beats M]``;
prints a table, then one JSON line. (The N battles are casual-shaped rows in OTB mode:
the look reads only the battle table.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from common import free_port, fresh_database, start_gunicorn  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
os.environ["DATABASE_URL"] = fresh_database("bench_referee")
import django  # noqa: E402

django.setup()

import httpx  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.battles.starting import create_battles, start_battle  # noqa: E402
from games.live import referees, sweep  # noqa: E402
from games.models.battle import Battle  # noqa: E402
from games.rules import clock  # noqa: E402
from games.rules.referee_presence import THRESHOLD_MS  # noqa: E402
from tournaments.models.people import Player  # noqa: E402
from tournaments.models.rounds import Match, Round  # noqa: E402
from tournaments.models.tournament import Entry, Tournament  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def make_hall(n: int, now) -> None:
    User = get_user_model()
    a = User.objects.create_user("bench-a")
    b = User.objects.create_user("bench-b")
    far = now + timedelta(hours=1)  # nothing due during the run
    Battle.objects.bulk_create(
        [
            Battle(
                number=1,
                mode=Battle.Mode.OTB,
                first_user=a,
                second_user=b,
                status=Battle.Status.RUNNING,
                side_to_move="dwarf",
                turn_started_at=now,
                think_ends_at=far,
                deadline=far,
                referee_seen_at=now,
            )
            for _ in range(n)
        ],
        batch_size=2_000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_battle")


def tournament_battle(now) -> tuple[Battle, object]:
    User = get_user_model()
    owner = User.objects.create_user("bench-org")
    referee = User.objects.create_user("bench-ref")
    t = Tournament.objects.create(name="Bench", slug="bench", owner=owner)
    t.referees.add(referee)
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    entries = [
        Entry.objects.create(tournament=t, player=Player.objects.create(name=name))
        for name in ("Ann", "Bo")
    ]
    match = Match.objects.create(round=rnd, table=1, player_a=entries[0], player_b=entries[1])
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=now)
    return start_battle(b1.pk, now=now), referee


def plan(sql: str) -> str:
    """The plan of a statement as it ran (its parameters inlined by Django's capture)."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}")
        return " / ".join(row[0].strip() for row in cursor.fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=10_000)
    parser.add_argument("--offline", type=int, default=1_000)
    parser.add_argument("--beats", type=int, default=500)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    now = timezone.now()
    make_hall(args.battles, now)
    fig: dict = {"battles": args.battles}

    look_at = now + timedelta(milliseconds=THRESHOLD_MS)  # every page just in time
    look = timed(lambda: referees.check(via="sweep", now=look_at), 300)
    with CaptureQueriesContext(connection) as q:
        referees.check(via="sweep", now=look_at)
    fig |= {"look_p50_ms": pct(look, 0.5), "look_p99_ms": pct(look, 0.99), "look_sql": len(q)}
    fig["look_plan"] = plan(q.captured_queries[0]["sql"])
    tick = timed(lambda: sweep.sweep(read_clock=lambda: look_at), 200)
    fig |= {"tick_p50_ms": pct(tick, 0.5), "tick_p99_ms": pct(tick, 0.99)}
    real_check = referees.check
    referees.check = lambda **kw: 0  # type: ignore[assignment]  # the tick before issue 25
    try:
        bare = timed(lambda: sweep.sweep(read_clock=lambda: look_at), 200)
    finally:
        referees.check = real_check  # type: ignore[assignment]
    fig |= {"tick_without_look_p50_ms": pct(bare, 0.5)}

    away = list(Battle.objects.values_list("pk", flat=True)[: args.offline])
    Battle.objects.filter(pk__in=away).update(referee_seen_at=now - timedelta(seconds=10))
    t = time.perf_counter()
    paused = referees.check(via="sweep", now=now)
    fig |= {"pause_k": paused, "pause_ms": round((time.perf_counter() - t) * 1000, 1)}
    assert Battle.objects.filter(paused_reason=clock.REASON_REFEREE_OFFLINE).count() == paused

    battle, referee = tournament_battle(timezone.now())
    client = Client()
    client.force_login(referee)
    url = f"/battles/referee/{battle.pk}/beat/"
    client.post(url, {"version": battle.clock_version})  # the first request of a session
    with CaptureQueriesContext(connection) as q:
        r = client.post(url, {"version": battle.clock_version})
    assert r.status_code == 200, r.content
    fig["beat_sql"] = len(q)
    if os.environ.get("BENCH_SHOW_SQL"):
        print("\n".join(x["sql"][:160] for x in q.captured_queries))
    port = free_port()
    web = start_gunicorn(port, workers=2)
    try:
        base = f"http://127.0.0.1:{port}"
        cookies = {"sessionid": client.cookies["sessionid"].value}
        with httpx.Client(base_url=base, cookies=cookies, timeout=10) as http:
            http.get(f"/battles/referee/{battle.pk}/")
            token = http.cookies.get("csrftoken") or ""
            headers = {"X-CSRFToken": token, "Referer": base}
            data = {"version": str(battle.clock_version)}

            def one() -> None:
                assert http.post(url, data=data, headers=headers).status_code == 200

            timed(one, 20)  # warm the workers
            beats = timed(one, args.beats)
    finally:
        web.terminate()
        web.wait(timeout=10)
    fig |= {"beat_p50_ms": pct(beats, 0.5), "beat_p95_ms": pct(beats, 0.95)}

    print(f"{args.battles} running OTB battles, every referee page beating:")
    print(
        f"  look for offline pages: p50 {fig['look_p50_ms']} ms, p99 {fig['look_p99_ms']} ms, {fig['look_sql']} SQL"
    )
    print(f"  plan: {fig['look_plan']}")
    print(
        f"  whole tick, nothing due: p50 {fig['tick_p50_ms']} ms (without the look {fig['tick_without_look_p50_ms']} ms)"
    )
    print(f"  {fig['pause_k']} pages gone at once: paused in one tick of {fig['pause_ms']} ms")
    print(
        f"beat POST to gunicorn (2 workers): p50 {fig['beat_p50_ms']} ms, p95 {fig['beat_p95_ms']} ms, {fig['beat_sql']} SQL"
    )
    print(json.dumps(fig))


if __name__ == "__main__":
    main()
