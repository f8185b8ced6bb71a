"""How well Glicko-2 (``ratings``) predicts a simulated season, against Elo (K = 20) and a coin.

Run from the repository root: ``python bench/ratings.py`` (full size: 200 players, 50 Swiss
tournaments of 6 rounds, 5 seeds; seconds) or smaller for a quick look, e.g.
``python bench/ratings.py --players 60 --tournaments 10 --seeds 1``. Pure Python: no
database, no Django. The last line is a JSON object of the figures.

The season:

* Each player has a hidden strength drawn from N(1500, 250). 70 % of the players are there
  from the first tournament; the others (the **newcomers**) arrive evenly between 20 % and
  80 % of the season (two a week at full size) and play their arrival tournament.
* A tournament (one a week) takes 48 entrants drawn from the players arrived so far,
  newcomers of the week first. Six Swiss rounds: entrants ordered by points, then Glicko-2
  rating; each takes the next one they have not met (the next one at all if they met everyone
  left). Every round is one rating period (``ratings.periods.fold``, incrementally).
* A match: with ``d`` the first player's strength minus the second's, the first wins with
  probability ``σ((d − 35) / 173.7)``, loses with ``σ((−d − 35) / 173.7)``, else it is drawn
  (σ the logistic; 10 % draws between equals, fewer as ``|d|`` grows).

What is measured, each round before it is played (each system's values from before it):

* **log-loss**: each match's ``−[s·ln p + (1 − s)·ln(1 − p)]`` with ``p`` the first player's
  predicted score and ``s`` their result, 1 / 0.5 / 0 (a draw counts as half a win and half
  a loss, so a coin scores ln 2 = 0.6931 on every match). Glicko-2's ``p`` is
  ``ratings.glicko2.expected_score`` (the two RDs combined, RDs grown to the round's time);
  Elo's is ``1 / (1 + 10^(−Δ/400))``; "truth" uses the hidden strengths: the floor no
  system can beat in expectation. Lower is better. Over every match, over the second half of the season,
  and over the matches with a newcomer in their first 12 rated rounds.
* **accuracy**: on decisive matches, the share the predicted favourite won (a 0.5 prediction
  counts half).
* **rounds to settle** (newcomers): after each round a newcomer plays, rank the players
  arrived so far by rating and by hidden strength; the newcomer has **settled** after ``k``
  rounds when, after their k-th rated round and every later one, the two ranks differ by at
  most 10 % of the players arrived (the true rank ± 10 %). Median, 75th and 90th percentiles over
  the newcomers and seeds; "never" counts the newcomers not settled when the season ends.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.glicko2 import expected_score
from ratings.periods import Period, PlayerState, RatedMatch, as_of, fold

ROUNDS = 6
ENTRANTS = 48
FOUNDERS_SHARE = 0.7
STRENGTH_SD = 250.0
LOGISTIC_SCALE = 400 / math.log(10)
DRAW_BAND = 35.0
ELO_K = 20.0
SETTLE_BAND = 0.10
NEW_ROUNDS = 12
T0 = datetime(2026, 1, 5, 10, 0, tzinfo=UTC)
SYSTEMS = ("coin", "elo", "glicko2", "truth")


def logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def outcome_probabilities(d: float) -> tuple[float, float]:
    """(win, loss) probabilities of the side ``d`` rating points stronger."""
    return logistic((d - DRAW_BAND) / LOGISTIC_SCALE), logistic((-d - DRAW_BAND) / LOGISTIC_SCALE)


def elo_expected(a: float, b: float) -> float:
    return 1 / (1 + 10 ** ((b - a) / 400))


def log_loss(p: float, s: float) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return -(s * math.log(p) + (1 - s) * math.log(1 - p))


@dataclass
class Tally:
    loss: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in SYSTEMS})
    late_loss: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in SYSTEMS})
    new_loss: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in SYSTEMS})
    hits: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in SYSTEMS})
    settle: dict[str, list[float]] = field(default_factory=lambda: {"elo": [], "glicko2": []})


def pair_swiss(
    entrants: list[int],
    points: dict[int, float],
    rating: dict[int, float],
    met: set[frozenset[int]],
) -> list[tuple[int, int]]:
    order = sorted(entrants, key=lambda p: (-points[p], -rating[p], p))
    pairs = []
    while order:
        a = order.pop(0)
        b = next((b for b in order if frozenset((a, b)) not in met), order[0])
        order.remove(b)
        pairs.append((a, b))
    return pairs


def rank_gap(
    player: int, present: list[int], value: dict[int, float], strength: list[float]
) -> float:
    """|rank by ``value`` − rank by strength| of ``player`` among ``present``, as a share."""
    by_value = sorted(present, key=lambda p: (-value[p], p)).index(player)
    by_strength = sorted(present, key=lambda p: (-strength[p], p)).index(player)
    return abs(by_value - by_strength) / len(present)


def settle_rounds(gaps: list[float]) -> float:
    """The k after which every gap is within the band (1-based); inf if the last is not."""
    k = len(gaps)
    while k > 0 and gaps[k - 1] <= SETTLE_BAND:
        k -= 1
    return math.inf if k == len(gaps) else k + 1


def season(players: int, tournaments: int, seed: int, tally: Tally) -> dict[str, float]:
    rng = random.Random(seed)
    strength = [rng.gauss(1500, STRENGTH_SD) for _ in range(players)]
    founders = round(players * FOUNDERS_SHARE)
    first, last = round(tournaments * 0.2), round(tournaments * 0.8)
    newcomers = players - founders
    arrival = [0] * founders + [first + i * (last - first) // newcomers for i in range(newcomers)]
    states: dict[int, PlayerState] = {}
    elo = dict.fromkeys(range(players), 1500.0)
    played = dict.fromkeys(range(players), 0)
    gaps: dict[str, dict[int, list[float]]] = {"elo": {}, "glicko2": {}}
    periods: list[Period] = []
    fold_seconds = 0.0
    for t in range(tournaments):
        present = [p for p in range(players) if arrival[p] <= t]
        fresh = [p for p in present if arrival[p] == t and p >= founders]
        others = [p for p in present if p not in fresh]
        size = min(ENTRANTS, len(present)) // 2 * 2
        entrants = (fresh + rng.sample(others, max(0, size - len(fresh))))[:size]
        points = dict.fromkeys(entrants, 0.0)
        met: set[frozenset[int]] = set()
        for r in range(ROUNDS):
            at = T0 + timedelta(days=7 * t, hours=2 * r)
            glicko = {p: as_of(states.get(p), at) for p in present}
            shown = {p: glicko[p].rating for p in present}
            matches = []
            elo_change = dict.fromkeys(entrants, 0.0)
            for a, b in pair_swiss(entrants, points, shown, met):
                met.add(frozenset((a, b)))
                win, loss = outcome_probabilities(strength[a] - strength[b])
                u = rng.random()
                s = 1.0 if u < win else 0.0 if u < win + loss else 0.5
                predictions = {
                    "coin": 0.5,
                    "elo": elo_expected(elo[a], elo[b]),
                    "glicko2": expected_score(glicko[a], glicko[b]),
                    "truth": win + (1 - win - loss) / 2,
                }
                for system, p in predictions.items():
                    tally.loss[system].append(log_loss(p, s))
                    if t >= tournaments // 2:
                        tally.late_loss[system].append(log_loss(p, s))
                    if any(q >= founders and played[q] < NEW_ROUNDS for q in (a, b)):
                        tally.new_loss[system].append(log_loss(p, s))
                    if s != 0.5:
                        tally.hits[system].append(0.5 if p == 0.5 else float((p > 0.5) == (s == 1)))
                elo_change[a] += ELO_K * (s - predictions["elo"])
                elo_change[b] -= ELO_K * (s - predictions["elo"])
                points[a] += s
                points[b] += 1 - s
                matches.append(RatedMatch(a, b, s))
            period = Period(at, (t + 1, r + 1), tuple(matches))
            periods.append(period)
            start = time.perf_counter()
            states = dict(fold([period], previous=states).states)
            fold_seconds += time.perf_counter() - start
            for p, change in elo_change.items():
                elo[p] += change
                played[p] += 1
            values = {
                "elo": elo,
                "glicko2": {p: states[p].rating.rating if p in states else 1500.0 for p in present},
            }
            for p in entrants:
                if p >= founders:
                    for system, value in values.items():
                        gaps[system].setdefault(p, []).append(rank_gap(p, present, value, strength))
    for system, by_player in gaps.items():
        tally.settle[system].extend(settle_rounds(g) for g in by_player.values())
    start = time.perf_counter()
    recomputed = fold(periods)
    recompute_seconds = time.perf_counter() - start
    if recomputed.states != states:
        raise SystemExit("the recompute differs from the incremental fold")
    return {
        "periods": len(periods),
        "matches": sum(len(p.matches) for p in periods),
        "fold_s": fold_seconds,
        "recompute_s": recompute_seconds,
        "provisional": sum(s.rating.rd > 110 for s in states.values()) / len(states),
    }


def percentile(values: list[float], q: float) -> float:
    ordered_values = sorted(values)
    return ordered_values[min(len(ordered_values) - 1, int(q * len(ordered_values)))]


def shown(x: float) -> str:
    return "never" if math.isinf(x) else f"{x:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    tally = Tally()
    runs = []
    per_seed = []
    started = time.perf_counter()
    for seed in range(1, args.seeds + 1):
        before = len(tally.loss["elo"])
        runs.append(season(args.players, args.tournaments, seed, tally))
        new = slice(before, None)
        per_seed.append(
            statistics.fmean(tally.loss["glicko2"][new]) - statistics.fmean(tally.loss["elo"][new])
        )
    elapsed = time.perf_counter() - started
    matches = sum(r["matches"] for r in runs)
    print(
        f"{args.players} players, {args.tournaments} tournaments x {ROUNDS} rounds, "
        f"{args.seeds} seed(s): {matches} matches, {sum(r['periods'] for r in runs)} periods"
    )
    print(
        f"{'':<9} {'log-loss':>9} {'2nd half':>9} {'newcomer':>9} {'accuracy':>9}"
        f" {'settle: median':>15} {'p75':>5} {'p90':>5} {'never':>8}"
    )
    figures: dict[str, float] = {}
    for system in SYSTEMS:
        loss = statistics.fmean(tally.loss[system])
        late = statistics.fmean(tally.late_loss[system])
        newcomers = statistics.fmean(tally.new_loss[system])
        accuracy = statistics.fmean(tally.hits[system])
        figures[f"{system}_log_loss"] = round(loss, 4)
        figures[f"{system}_accuracy"] = round(accuracy, 4)
        settle = ""
        if system in tally.settle:
            rounds = tally.settle[system]
            never = sum(math.isinf(x) for x in rounds)
            median, p75, p90 = (shown(percentile(rounds, q)) for q in (0.5, 0.75, 0.9))
            settle = f"{median:>15} {p75:>5} {p90:>5} {f'{never}/{len(rounds)}':>8}"
            figures[f"{system}_settle_median"] = percentile(rounds, 0.5)
        row = f"{system:<9} {loss:>9.4f} {late:>9.4f} {newcomers:>9.4f} {accuracy:>9.1%} {settle}"
        print(row.rstrip())
    half = args.tournaments // 2 + 1
    print(
        "log-loss: mean of -[s ln p + (1-s) ln(1-p)] over the matches, p the first player's "
        "predicted score\n  from the values before the round, s their result 1 / 0.5 / 0 (a draw "
        "is half a win and half a loss;\n  a coin scores ln 2). Glicko-2's p: expected score "
        "with both RDs combined, grown to the round.\n"
        f"  2nd half: tournaments {half}-{args.tournaments}; newcomer: matches with a newcomer "
        f"in their first {NEW_ROUNDS} rated rounds.\n"
        "accuracy: decisive matches won by the predicted favourite (p = 0.5 counts half).\n"
        "settle: the k-th rated round of a newcomer after which, at every later round they "
        "play, their rank by\n  rating among the players arrived so far is within "
        f"{SETTLE_BAND:.0%} of that field of their rank by hidden strength;\n  never: not "
        "settled when the season ends (counted over newcomers x seeds)."
    )
    wins = sum(d < 0 for d in per_seed)
    print(
        f"Glicko-2 minus Elo log-loss per seed: {', '.join(f'{d:+.4f}' for d in per_seed)} "
        f"(Glicko-2 lower in {wins}/{len(per_seed)})"
    )
    fold_ms = 1000 * statistics.fmean(r["fold_s"] for r in runs)
    recompute_ms = 1000 * statistics.fmean(r["recompute_s"] for r in runs)
    print(
        f"fold: {fold_ms:.0f} ms a season one period at a time, {recompute_ms:.0f} ms recomputed "
        f"in one call (equal: yes); provisional at the end: "
        f"{statistics.fmean(r['provisional'] for r in runs):.0%}; whole run {elapsed:.1f} s"
    )
    figures |= {
        "fold_ms": round(fold_ms),
        "recompute_ms": round(recompute_ms),
        "run_s": round(elapsed, 1),
    }
    print(json.dumps(figures))
    if figures["glicko2_log_loss"] >= figures["elo_log_loss"]:
        raise SystemExit("Glicko-2 does not beat Elo on log-loss: investigate")


if __name__ == "__main__":
    main()
