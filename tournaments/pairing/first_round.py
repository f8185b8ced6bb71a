"""Round 1 of a Swiss tournament as the matching's costs (``tournaments.pairing.matching``)
make it, for the organiser's draft page: nobody has points or history yet, so everyone is in
one score group ranked by seed, and

- with an odd number of players, the **bye** goes to the player with the fewest players
  below them (``players_below``, tier 4): the lowest seed;
- the others are paired by the **fold** (``fold_partner``, tier 5): the highest seed meets
  the lowest, the second the second-lowest, and so on; the top half meets the bottom half.

A forbidden pair (a hard rule, tier 0) or the organiser's edits can change this; a test
pairs fields of every size from 2 to 21 with ``pair_swiss`` and finds this fold.

Pure: no Django imports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.matching import fold_partner, players_below


@dataclass(frozen=True)
class SeedFold:
    #: The pairs of seeds, the higher seed first, from the top seed down.
    pairs: tuple[tuple[int, int], ...]
    #: The seed given the bye (an odd field), else None.
    bye: int | None = None


def seed_fold(seeds: Sequence[int]) -> SeedFold:
    """Round 1 of the players with these seeds (gaps allowed: a player absent).

    >>> seed_fold([1, 2, 3, 4, 5, 6, 7, 8])
    SeedFold(pairs=((1, 8), (2, 7), (3, 6), (4, 5)), bye=None)
    >>> seed_fold([6, 1, 2, 5, 3])  # seed 4 absent: five players
    SeedFold(pairs=((1, 5), (2, 3)), bye=6)
    """
    ranked = sorted(seeds)
    bye = None
    if len(ranked) % 2:
        size = len(ranked)
        bye = ranked.pop(min(range(size), key=lambda place: players_below(place, size)))
    size = len(ranked)
    pairs = tuple((ranked[p], ranked[fold_partner(p, size)]) for p in range(size // 2))
    return SeedFold(pairs, bye)
