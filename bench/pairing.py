"""Time one Swiss round 5 (after four simulated rounds) for 16, 64, 256 and 1,000 players.

Run from the repository root: ``python bench/pairing.py``. The last line is a JSON object.
Timings on a shared two-core machine are noisy; the pairing of round 5 is repeated (fewer
times for big fields) and the median reported.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.records import History, PlayerRecord
from tournaments.pairing.swiss import pair_swiss

SIZES = (16, 64, 256, 1000)
REPEATS = {16: 5, 64: 5, 256: 3, 1000: 1}


def players_after(n: int, rounds: int, seed: int) -> tuple[list[PlayerRecord], History]:
    """Play ``rounds`` Swiss rounds with random W/D/L results (2/1/0 points)."""
    rng = random.Random(seed)
    score = dict.fromkeys(range(1, n + 1), 0)
    byes = dict.fromkeys(score, 0)
    sides: dict[int, list[str]] = {i: [] for i in score}
    played: set[frozenset[int]] = set()
    for rnd in range(1, rounds + 2):
        order = sorted(score, key=lambda i: (-score[i], i))
        rank = {pid: r for r, pid in enumerate(order, start=1)}
        players = [PlayerRecord(i, score[i], rank[i], i, byes[i], tuple(sides[i])) for i in score]
        history = History(played=frozenset(played))
        if rnd > rounds:
            return players, history
        for p in pair_swiss(players, history, seed=seed, round_number=rnd):
            if p.b is None:
                byes[p.a] += 1
                score[p.a] += 2
                continue
            played.add(frozenset((p.a, p.b)))
            sides[p.a].append("dwarfs")
            sides[p.b].append("trolls")
            result = rng.choice("aabbd")
            score[p.a] += {"a": 2, "b": 0, "d": 1}[result]
            score[p.b] += {"a": 0, "b": 2, "d": 1}[result]
    raise AssertionError("unreachable")


def main() -> None:
    figures: dict[str, float] = {}
    print(f"{'players':>8} {'median s':>9} {'runs':>5} {'rematches':>10} {'floats':>7}")
    for n in SIZES:
        players, history = players_after(n, 4, seed=n)
        times = []
        for _ in range(REPEATS[n]):
            start = time.perf_counter()
            result = pair_swiss(players, history, seed=n, round_number=5, rounds_total=9)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        rematch = sum("rematch" in p.flags for p in result)
        floats = sum("float_down" in p.flags or "float_up" in p.flags for p in result)
        print(f"{n:>8} {median:>9.3f} {len(times):>5} {rematch:>10} {floats:>7}")
        figures[f"pair_{n}_s"] = round(median, 3)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
