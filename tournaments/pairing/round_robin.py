"""Round robin by the circle method: every player meets every other once; an odd field
gives each player exactly one bye. Deterministic for (players, round, seed). Pure: no
Django imports.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.pairing.records import (
    Pairing,
    PairingBugError,
)


def pair_round_robin(
    player_ids: Sequence[int], *, round_number: int, seed: int = 0
) -> list[Pairing]:
    """Circle-method round ``round_number`` (1..n-1 for even n, 1..n for odd n).

    ``player_ids`` is the seeding order. ``seed`` 0 keeps it; any other seed shuffles the
    positions deterministically (pass the same seed every round). Odd counts add a bye
    position, so each player gets exactly one bye over the n rounds.
    """
    ids: list[int | None] = list(player_ids)
    if len(set(ids)) != len(ids):
        raise PairingBugError("duplicate player ids")
    if seed:
        random.Random(f"rr:{seed}").shuffle(ids)
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    if n == 0:
        return []
    if not 1 <= round_number <= n - 1:
        raise ValueError(f"round_number must be between 1 and {n - 1}, got {round_number}")
    rest = ids[1:]
    shift = (round_number - 1) % len(rest)
    rest = rest[len(rest) - shift :] + rest[: len(rest) - shift]
    circle = [ids[0], *rest]
    pairings: list[Pairing] = []
    byes: list[Pairing] = []
    for i in range(n // 2):
        x, y = circle[i], circle[n - 1 - i]
        # Who has the first side: the fixed player alternates by round, the other boards swap
        # on odd boards. Checked for 3-14 players: |first - second| <= 2 for everyone.
        if (i % 2 == 1) if i else (round_number % 2 == 0):
            x, y = y, x
        if x is None or y is None:
            byes.append(Pairing(0, x if y is None else y, None, ("bye",)))  # type: ignore[arg-type]
        else:
            pairings.append(Pairing(0, x, y, ()))
    return [Pairing(table, p.a, p.b, p.flags) for table, p in enumerate(pairings + byes, start=1)]
