"""Measure the analysis's judgements: how many blunders, mistakes and inaccuracies it finds
in games between the computer's levels, per side and game.

Run ``nice .venv/bin/python bench/analysis.py [--games N] [--pairings 5v5,1v1,3v3,1v5]
[--game thud|cavalli|both] [--move-ms T] [--analyse-ms U] [--max-plies P] [--jobs J]
[--seed S] [--losses]``; ``BENCH_ANALYSIS_GAMES`` sets the default of ``--games``
(40; e.g. ``BENCH_ANALYSIS_GAMES=2`` for a quick run). For each game and each pairing
``AvB`` (level A takes the first side, level B the second) it plays N battles from
seeded openings (a few random plies, and for Cavalli a seeded board) to the end or the
move limit, analyses each with :func:`games.rules.analysis.analyse_battle` at U ms per position
(the site's budget for a quickfire battle, ``games.analysis.runs.budget_ms``, by
default), judges every move by the game's own ``analysis_thresholds``, and prints per
side the blunders, mistakes and inaccuracies per battle, the mean loss per move and the
plies. ``--losses`` adds the 50th, 90th, 97th and 99th percentile of the losses (the
figures the thresholds were set from). The last line is one JSON object of the figures.

It speaks only the :class:`games.rules.interface.BotGame` and :class:`games.rules.interface.Game`
protocols. Times are wall clock and the searches are bounded by them: run it niced on a
machine that is otherwise quiet, or say what else ran.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engines import registry  # noqa: E402
from games.rules import analysis
from games.rules.interface import BLUNDER, INACCURACY, MISTAKE  # noqa: E402

#: The quickfire move limit: 30 moves each side.
MAX_PLIES = 60
#: Random plies played before the bots take over (varies the openings between battles).
OPENING_PLIES = 2
GAMES = ("thud", "cavalli")
PLURAL = {BLUNDER: "blunders", MISTAKE: "mistakes", INACCURACY: "inaccuracies"}


@dataclass(frozen=True)
class Job:
    game: str
    levels: tuple[int, int]
    seed: int
    move_ms: float
    analyse_ms: float
    max_plies: int


def play(job: Job) -> list[str | None]:
    """The moves of one battle: seeded opening plies, then the two levels."""
    game = registry.get(job.game)
    rng = random.Random(job.seed)
    state = game.initial_state({"board_seed": rng.randrange(1 << 30)})
    moves: list[str | None] = []
    while len(moves) < job.max_plies and game.outcome(state) is None:
        if len(moves) < OPENING_PLIES:
            move = rng.choice(game.legal_moves(state))
        else:
            side = 0 if game.side_to_move(state) == game.sides[0].key else 1
            move = game.bot_move(  # type: ignore[attr-defined]
                state,
                level=job.levels[side],
                seed=job.seed * 1000 + len(moves),
                budget_ms=job.move_ms,
                clock=time.monotonic,
                plies_left=job.max_plies - len(moves),
            )
        state, info = game.apply(state, move)
        moves.append(info.notation)
    return moves


def judge(job: Job) -> dict[str, Any]:
    """One battle played and analysed: per side (0 first, 1 second) its counts and losses."""
    game = registry.get(job.game)
    moves = play(job)
    states = analysis.positions(game, game.initial_state({"board_seed": _seed(job)}), moves)
    ms = job.analyse_ms or analysis.budget_ms(len(moves) + 1)
    rows = analysis.analyse_battle(
        game, states, moves, budget_ms=ms, clock=time.monotonic, max_plies=job.max_plies
    )
    first = game.sides[0].key
    sides: list[dict[str, Any]] = [
        {BLUNDER: 0, MISTAKE: 0, INACCURACY: 0, "losses": []} for _ in range(2)
    ]
    for row in rows:
        if row.ply <= OPENING_PLIES:
            continue  # the random opening plies are nobody's play
        side = sides[0 if row.side == first else 1]
        side["losses"].append(row.loss)
        if row.judgement:
            side[row.judgement] += 1
    return {"sides": sides, "plies": len(moves), "ms": ms}


def _seed(job: Job) -> int:
    return random.Random(job.seed).randrange(1 << 30)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games", type=int, default=int(os.environ.get("BENCH_ANALYSIS_GAMES", "40"))
    )
    parser.add_argument("--pairings", default="5v5,1v1,3v3,1v5")
    parser.add_argument("--game", choices=[*GAMES, "both"], default="both")
    # The site gives level 5 1500 ms a move (games.bots.moves.LEVEL_BUDGET_MS); less here keeps
    # the run short and makes the bots weaker, so the counts err on the high side.
    parser.add_argument("--move-ms", type=float, default=300, help="time per bot move")
    parser.add_argument(
        "--analyse-ms", type=float, default=0, help="time per position (0: the site's budget)"
    )
    parser.add_argument("--max-plies", type=int, default=MAX_PLIES)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--losses", action="store_true", help="print loss percentiles too")
    args = parser.parse_args()
    try:
        pairings = [
            (name, tuple(int(level) for level in name.split("v")))
            for name in args.pairings.split(",")
        ]
    except ValueError:
        parser.error("--pairings: levels as AvB, comma-separated, e.g. 5v5,1v5")
    if any(len(levels) != 2 or not all(1 <= x <= 5 for x in levels) for _, levels in pairings):
        parser.error("--pairings: two levels 1-5 each, e.g. 5v5,1v5")
    if args.games < 1 or args.jobs < 1 or args.move_ms <= 0 or args.max_plies < 4:
        parser.error("--games and --jobs at least 1, --move-ms positive, --max-plies at least 4")
    games = GAMES if args.game == "both" else (args.game,)
    print(
        f"analysis judgements: {args.games} battles a pairing, {args.move_ms:g} ms a move, "
        f"analysis at {args.analyse_ms or 'the site budget'} ms a position, move limit "
        f"{args.max_plies} plies, seed {args.seed}, {args.jobs} job(s), "
        f"Python {platform.python_version()}"
    )
    header = ("game", "pairing", "side", "blunders", "mistakes", "inaccur.", "loss/move", "plies")
    print("  ".join(f"{h:>9}" for h in header))
    figures: dict[str, Any] = {"games": args.games, "move_ms": args.move_ms}
    started = time.monotonic()
    with Pool(args.jobs) as pool:
        for key in games:
            thresholds = registry.get(key).analysis_thresholds  # type: ignore[attr-defined]
            figures[f"{key}_thresholds"] = [
                thresholds.inaccuracy,
                thresholds.mistake,
                thresholds.blunder,
            ]
            for index, (name, levels) in enumerate(pairings):
                jobs = [
                    Job(
                        key,
                        levels,  # type: ignore[arg-type]
                        args.seed * 1_000_003 + index * 10_007 + i,
                        args.move_ms,
                        args.analyse_ms,
                        args.max_plies,
                    )
                    for i in range(args.games)
                ]
                results = pool.map(judge, jobs, chunksize=1)
                plies = statistics.fmean(r["plies"] for r in results)
                for side in (0, 1):
                    per = [r["sides"][side] for r in results]
                    losses = [loss for p in per for loss in p["losses"]]
                    counts = {j: statistics.fmean(p[j] for p in per) for j in PLURAL}
                    mean_loss = statistics.fmean(losses) if losses else 0.0
                    label = f"L{levels[side]}"
                    row = (
                        key,
                        name,
                        f"{side + 1}:{label}",
                        f"{counts[BLUNDER]:.2f}",
                        f"{counts[MISTAKE]:.2f}",
                        f"{counts[INACCURACY]:.2f}",
                        f"{mean_loss:.2f}",
                        f"{plies:.1f}",
                    )
                    print("  ".join(f"{cell:>9}" for cell in row), flush=True)
                    if args.losses:
                        qs = [percentile(losses, q) for q in (0.5, 0.9, 0.97, 0.99)]
                        print(
                            f"{'':>9}  losses p50 {qs[0]:.2f}  p90 {qs[1]:.2f}  "
                            f"p97 {qs[2]:.2f}  p99 {qs[3]:.2f}  max {max(losses, default=0):.2f}",
                            flush=True,
                        )
                    prefix = f"{key}_{name}_side{side + 1}"
                    for judgement, value in counts.items():
                        figures[f"{prefix}_{PLURAL[judgement]}"] = round(value, 2)
                    figures[f"{prefix}_loss_per_move"] = round(mean_loss, 3)
                figures[f"{key}_{name}_plies"] = round(plies, 1)
                figures[f"{key}_{name}_analyse_ms"] = round(
                    statistics.fmean(r["ms"] for r in results)
                )
    figures["elapsed_s"] = round(time.monotonic() - started, 1)
    figures["python"] = platform.python_version()
    figures["cpus"] = os.cpu_count() or 0
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
