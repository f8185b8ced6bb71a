"""Benchmark the Thud rules engine: perft from the opening and legal-move generation.

Run ``.venv/bin/python bench/engine.py``. Prints a table, then (last line) one JSON object
for tools. Times are the best of a few runs (wall clock, ``time.perf_counter``); on a
shared machine expect some noise.
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.thud import Position  # noqa: E402
from games.thud.core.perft import perft  # noqa: E402

PERFT_EXPECTED = {1: 656, 2: 22_624, 3: 14_142_624}
N_POSITIONS = 20


def best_of(runs: int, fn: Callable[[], object]) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def midgame_positions() -> list[Position]:
    """20 fixed positions: seeded random playouts of 20-100 plies, preferring captures half
    the time so that trolls meet dwarfs."""
    rng = random.Random(20260101)
    positions = []
    while len(positions) < N_POSITIONS:
        pos = Position.initial()
        for _ in range(rng.randint(20, 100)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            captures = [m for m in moves if m.captures]
            pos = pos.apply(rng.choice(captures if captures and rng.random() < 0.5 else moves))
        if pos.outcome() is None:
            positions.append(pos)
    return positions


def movegen_rate(positions: list[Position], seconds: float = 1.0) -> tuple[float, int]:
    """Full ``legal_moves()`` calls (Move objects, sorted) per second over the positions."""
    calls = moves = 0
    start = time.perf_counter()
    while True:
        for pos in positions:
            moves += len(pos.legal_moves())
        calls += len(positions)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed, moves // calls


def main() -> None:
    opening = Position.initial()
    rows = []
    results: dict[str, float | int | str] = {}
    for depth, runs in ((1, 5), (2, 3), (3, 3)):
        seconds, nodes = best_of(runs, lambda d=depth: perft(opening, d))
        assert nodes == PERFT_EXPECTED[depth], (depth, nodes)
        rows.append((f"perft {depth} (opening, subset)", f"{nodes:,} nodes", f"{seconds:.3f} s"))
        results[f"perft{depth}_s"] = round(seconds, 4)
    results["perft3_nodes_per_s"] = round(PERFT_EXPECTED[3] / float(results["perft3_s"]))

    positions = midgame_positions()
    rate, avg_moves = movegen_rate(positions)
    rows.append(
        (
            f"legal_moves() on {len(positions)} mid-game positions",
            f"avg {avg_moves} moves",
            f"{rate:,.0f} positions/s",
        )
    )
    results["movegen_positions_per_s"] = round(rate)
    results["python"] = platform.python_version()
    results["cpus"] = os.cpu_count() or 0

    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    print(f"Thud engine benchmark (Python {platform.python_version()}, best of runs)")
    for row in rows:
        print("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print(json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main()
