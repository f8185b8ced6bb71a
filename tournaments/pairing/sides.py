"""Side allocation: which of two paired players takes the first side in battle 1.

Pure: no Django imports.
"""

from __future__ import annotations

import random

from tournaments.pairing.records import PlayerRecord


def allocate_sides(a: PlayerRecord, b: PlayerRecord, rng: random.Random) -> tuple[int, int, str]:
    """Return ``(first side's id, second side's id, flag)`` for battle 1.

    The player who took the second side in battle 1 more often gets the first; on equal
    counts, the one who had the second side in the most recent round where their histories differ (histories
    aligned from the end, so late entries compare fairly); otherwise a seeded coin.
    """

    def balance(p: PlayerRecord) -> int:
        return p.sides.count("second") - p.sides.count("first")

    if balance(a) != balance(b):
        first, second = (a, b) if balance(a) > balance(b) else (b, a)
        return first.id, second.id, "side_alternated"
    for sa, sb in zip(reversed(a.sides), reversed(b.sides), strict=False):
        if sa != sb:
            first, second = (a, b) if sa == "second" else (b, a)
            return first.id, second.id, "side_alternated"
    if rng.random() < 0.5:
        return a.id, b.id, "side_coin"
    return b.id, a.id, "side_coin"
