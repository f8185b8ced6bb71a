"""Round 1 in words (``first_round.seed_fold``) is what the Swiss pairing does: fields of
every size, with seeds in any order of ids and with gaps (absent players)."""

from __future__ import annotations

import doctest
import random

import pytest

from tournaments.pairing import first_round, matching
from tournaments.pairing.first_round import SeedFold, seed_fold
from tournaments.pairing.records import History, PlayerRecord
from tournaments.pairing.swiss import pair_swiss


def swiss_round_one(seeds: list[int], *, pairing_seed: int) -> SeedFold:
    """``pair_swiss`` on a round 1 of these seeds, read back as seeds."""
    rng = random.Random(pairing_seed)
    ids = rng.sample(range(100, 1000), len(seeds))  # ids unrelated to the seeds
    players = [
        PlayerRecord(id=i, score=0, rank=rank, seed=seed)
        for rank, (i, seed) in enumerate(zip(ids, sorted(seeds), strict=True), start=1)
    ]
    seed_of = {p.id: p.seed for p in players}
    pairings = pair_swiss(players, History(), seed=pairing_seed, round_number=1, rounds_total=5)
    pairs = tuple(tuple(sorted((seed_of[p.a], seed_of[p.b]))) for p in pairings if p.b is not None)
    bye = next((seed_of[p.a] for p in pairings if p.b is None), None)
    return SeedFold(tuple(sorted(pairs)), bye)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", range(2, 22))
def test_the_swiss_round_one_is_the_fold_of_the_seeds_with_the_bye_to_the_lowest(n):
    seeds = list(range(1, n + 1))
    for pairing_seed in (0, 7):
        assert swiss_round_one(seeds, pairing_seed=pairing_seed) == seed_fold(seeds)


def test_absent_players_leave_gaps_that_the_fold_closes():
    seeds = [1, 2, 4, 5, 6, 8, 9, 10, 11]  # 3 and 7 absent: nine players
    assert seed_fold(seeds) == SeedFold(((1, 10), (2, 9), (4, 8), (5, 6)), bye=11)
    assert swiss_round_one(seeds, pairing_seed=3) == seed_fold(seeds)


def test_the_examples_in_the_docstrings_hold():
    for module in (first_round, matching):
        assert doctest.testmod(module).failed == 0
