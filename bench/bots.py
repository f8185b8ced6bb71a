"""Benchmark the computer players' strength: a ladder of levels, and time against itself.

Run ``.venv/bin/python bench/bots.py [--game thud|cavalli] [--matches N] [--ms T]
[--time-ms U] [--policy P] [--jobs J] [--seed S] [--only ladder|time|picker]``. For each
level L in 2..5 it plays L against L-1 over N two-battle matches (the same opening, sides
swapped in the second battle) at T ms per move, then level 5 at U ms per move (default T)
against level 5 at U/4 ms. ``--only picker`` (Thud) plays level 5 at U ms per move against
``bench/thud_picker.py``, a one-move heuristic picker in the manner of the published Thud
AIs (our own code, not theirs). Every battle stops at the quickfire move
limit (30 moves each side). A match goes to the player with the larger summed score
differential over its two battles (Thud: a dwarf 1 point, a troll 4), else it is drawn.

Per pairing it prints the score of the stronger player (a match won 1, drawn 0.5), the
Elo difference with a 95 % interval (normal approximation over matches), the search's
nodes per second (``analyse`` on one position of each match, at that player's time) and
the number of matches. The last line is one JSON object of the figures.

The ladder speaks only the :class:`games.rules.interface.BotGame` protocol (``bot_move``,
``analyse``) and the :class:`games.rules.interface.Game` rules, so Cavalli plugs in unchanged.
Openings differ by match: a few seeded random plies (and, for Cavalli, a seeded board),
and seeded bots. Times per move are wall clock: run it on a quiet machine; ``--jobs``
plays matches in parallel processes (at most one per free core, or the times mislead).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from thud_picker import pick  # noqa: E402

from games.cavalli.game import CavalliGame  # noqa: E402
from games.rules.interface import BotGame, Game  # noqa: E402
from games.thud.core.notation import format_move  # noqa: E402
from games.thud.core.position import Position  # noqa: E402
from games.thud.game import ThudGame  # noqa: E402

#: The quickfire move limit: 30 moves each side.
MAX_PLIES = 60
#: Random plies played before the bots take over (varies the openings between matches).
OPENING_PLIES = 2


#: The level that stands for :func:`thud_picker.pick` (Thud only).
PICKER = 0


@dataclass(frozen=True)
class Player:
    level: int
    ms: float

    def __str__(self) -> str:
        return "picker" if self.level == PICKER else f"L{self.level}@{self.ms:g}ms"


@dataclass(frozen=True)
class Job:
    game: str
    policy: str
    strong: Player
    weak: Player
    seed: int


def make_game(key: str, policy: str) -> Any:
    if key == "thud":
        return ThudGame(policy)
    game = CavalliGame()
    if not isinstance(game, BotGame):
        raise SystemExit("bench/bots.py: --game cavalli: not yet (CavalliGame has no bot_move)")
    return game


def opening(game: Game, key: str, rng: random.Random) -> Any:
    state = game.initial_state({"board_seed": rng.randrange(1 << 30)} if key == "cavalli" else {})
    for _ in range(OPENING_PLIES):
        moves = game.legal_moves(state)
        if not moves or game.outcome(state) is not None:
            break
        state, _info = game.apply(state, rng.choice(moves))
    return state


def battle(game: Any, state: Any, players: tuple[Player, Player], seed: int) -> tuple[int, int]:
    """Play from ``state`` (``players[i]`` moves for side ``i``) to the end or the move
    limit; the first side's score minus the second's, and the plies played."""
    first = game.sides[0].key
    ply = 0
    while ply < MAX_PLIES and game.outcome(state) is None:
        player = players[0 if game.side_to_move(state) == first else 1]
        if player.level == PICKER:
            move = picker_move(game, state, seed * 1000 + ply)
        else:
            move = game.bot_move(
                state,
                level=player.level,
                seed=seed * 1000 + ply,
                budget_ms=player.ms,
                clock=time.monotonic,
                plies_left=MAX_PLIES - ply,
            )
        state, _info = game.apply(state, move)
        ply += 1
    scores = game.scores(state)
    return scores[first] - scores[game.sides[1].key], ply


def picker_move(game: Any, state: Position, seed: int) -> str:
    raw = pick(
        state._d, state._t, game.side_to_move(state) == "dwarf", game.policy, random.Random(seed)
    )
    return format_move(state._to_moves([raw])[0])


def nodes_per_second(game: Any, state: Any, ms: float) -> float:
    if game.outcome(state) is not None:
        return 0.0
    start = time.monotonic()
    scored = game.analyse(state, budget_ms=ms, clock=time.monotonic, plies_left=MAX_PLIES)
    return scored.nodes / max(time.monotonic() - start, 1e-6)


def play_match(job: Job) -> dict[str, float]:
    """One match: battle 1 the strong player takes the first side, battle 2 the second."""
    game = make_game(job.game, job.policy)
    rng = random.Random(job.seed)
    start = opening(game, job.game, rng)
    diff1, plies1 = battle(game, start, (job.strong, job.weak), job.seed * 2)
    diff2, plies2 = battle(game, start, (job.weak, job.strong), job.seed * 2 + 1)
    margin = diff1 - diff2  # the strong player's summed differential
    return {
        "score": 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5,
        "margin": margin,
        "plies": (plies1 + plies2) / 2,
        "nps": nodes_per_second(game, start, job.strong.ms),
    }


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0"


def summarise(results: list[dict[str, float]]) -> dict[str, float]:
    scores = [r["score"] for r in results]
    mean = statistics.fmean(scores)
    spread = statistics.pstdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    return {
        "score": mean,
        "elo": elo(mean),
        "elo_low": elo(mean - 1.96 * spread),
        "elo_high": elo(mean + 1.96 * spread),
        "nps": statistics.fmean(r["nps"] for r in results),
        "margin": statistics.fmean(r["margin"] for r in results),
        "plies": statistics.fmean(r["plies"] for r in results),
        "matches": len(results),
    }


def pairings(ms: float, time_ms: float, only: str | None) -> Iterator[tuple[str, Player, Player]]:
    if only in (None, "ladder"):
        for level in range(2, 6):
            yield f"L{level}-L{level - 1}", Player(level, ms), Player(level - 1, ms)
    if only in (None, "time"):
        yield "time", Player(5, time_ms), Player(5, time_ms / 4)
    if only == "picker":
        yield "picker", Player(5, time_ms), Player(PICKER, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["thud", "cavalli"], default="thud")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--ms", type=float, default=1000, help="time per move")
    parser.add_argument("--time-ms", type=float, help="level 5's time against itself at a quarter")
    parser.add_argument(
        "--only", choices=["ladder", "time", "picker"], help="play only these pairings"
    )
    parser.add_argument("--policy", choices=["subset", "all_or_none", "all"], default="all_or_none")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    time_ms = args.ms if args.time_ms is None else args.time_ms
    if args.matches < 1 or args.jobs < 1 or args.ms <= 0 or time_ms <= 0:
        parser.error("--matches and --jobs must be at least 1, --ms and --time-ms positive")
    if args.only == "picker" and args.game != "thud":
        parser.error("--only picker: the picker plays Thud")
    make_game(args.game, args.policy)  # "not yet" before any work
    print(
        f"{args.game} bot ladder: {args.matches} matches a pairing, {args.ms:g} ms a move "
        f"(level 5 against itself: {time_ms:g} ms against {time_ms / 4:g} ms), "
        f"policy {args.policy}, move limit {MAX_PLIES} plies, seed {args.seed}, "
        f"{args.jobs} job(s), Python {platform.python_version()}"
    )
    header = ("pairing", "score", "Elo (95 %)", "margin/match", "plies/battle", "nodes/s", "n")
    print("  ".join(f"{h:>14}" for h in header))
    figures: dict[str, Any] = {
        "game": args.game,
        "policy": args.policy,
        "ms_per_move": args.ms,
        "time_ms_per_move": time_ms,
    }
    started = time.monotonic()
    with Pool(args.jobs) as pool:
        for index, (name, strong, weak) in enumerate(pairings(args.ms, time_ms, args.only)):
            jobs = [
                Job(
                    args.game, args.policy, strong, weak, args.seed * 1_000_003 + index * 10_007 + i
                )
                for i in range(args.matches)
            ]
            s = summarise(pool.map(play_match, jobs, chunksize=1))
            interval = f"{s['elo']:+.0f} [{s['elo_low']:+.0f},{s['elo_high']:+.0f}]"
            row = (
                f"{strong}-{weak}",
                f"{100 * s['score']:.1f} %",
                interval,
                f"{s['margin']:+.1f}",
                f"{s['plies']:.1f}",
                f"{s['nps']:,.0f}",
                str(s["matches"]),
            )
            print("  ".join(f"{cell:>14}" for cell in row), flush=True)
            key = name.lower().replace("-", "_")
            figures[f"{key}_score_pct"] = round(100 * s["score"], 1)
            figures[f"{key}_elo"] = round(s["elo"])
            figures[f"{key}_elo_low"] = round(s["elo_low"])
            figures[f"{key}_elo_high"] = round(s["elo_high"])
            figures[f"{key}_nodes_per_s"] = round(s["nps"])
            figures[f"{key}_matches"] = s["matches"]
    figures["elapsed_s"] = round(time.monotonic() - started, 1)
    figures["python"] = platform.python_version()
    figures["cpus"] = os.cpu_count() or 0
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
