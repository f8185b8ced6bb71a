"""Time ``compute_standings`` for 1,000 players after 9 rounds.

Run from the repository root: ``python bench/standings.py``. Prints the top of the table and,
as the last line, a JSON object with the median of several runs (noisy on a shared machine).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# A MatchResult reads its game's scale from the app registry: Django is set up, no database.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
django.setup()

from tournaments.rules.result import MatchResult  # noqa: E402
from tournaments.standings.table import EntrantRecord, MatchRecord, compute_standings  # noqa: E402

PLAYERS = 1000
ROUNDS = 9
RUNS = 7


def main() -> None:
    rng = random.Random(1)
    entrants = [EntrantRecord(i, f"Player {i}", i) for i in range(1, PLAYERS + 1)]
    matches = []
    for rnd in range(1, ROUNDS + 1):
        ids = [e.id for e in entrants]
        rng.shuffle(ids)
        for a, b in zip(ids[::2], ids[1::2], strict=True):
            survivors = (
                rng.randint(0, 32),
                rng.randint(0, 8),
                rng.randint(0, 32),
                rng.randint(0, 8),
            )
            matches.append(MatchRecord(rnd, a, b, MatchResult(*survivors, game="thud")))
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        rows = compute_standings(entrants, matches)
        times.append(time.perf_counter() - start)
    print(
        f"{'rank':>4} {'name':<12} {'pts':>4} {'diff':>5} {'buch':>5} {'SB':>6} {'bw':>3}  separated by"
    )
    for r in rows[:10]:
        print(
            f"{r.rank:>4} {r.name:<12} {r.match_points:>4} {r.differential:>5} {r.buchholz:>5} "
            f"{r.sonneborn_berger:>6.1f} {r.battles_won:>3}  {r.separated_by}"
        )
    print(f"... {len(rows)} rows, {len(matches)} matches, {RUNS} runs")
    print(json.dumps({"standings_1000x9_ms": round(statistics.median(times) * 1000, 1)}))


if __name__ == "__main__":
    main()
