"""Perft: the number of move sequences of a given length; and every battle there is.

>>> from tests.games.tiny.core.position import Position
>>> [perft(Position.initial(), d) for d in range(3)]
[1, 3, 10]
"""

from __future__ import annotations

from collections import Counter

from tests.games.tiny.core.position import Position, Side


def perft(position: Position, depth: int) -> int:
    """Move sequences of length ``depth`` (a finished battle has none below it)."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    return sum(perft(position.play(m), depth - 1) for m in position.legal_moves())


def endings(position: Position) -> Counter[tuple[int, int, int]]:
    """Every battle played out from ``position``: ``(plies, gold points, silver points)``
    of each finished battle, counted."""
    found: Counter[tuple[int, int, int]] = Counter()

    def walk(p: Position, plies: int) -> None:
        moves = p.legal_moves()
        if not moves:
            found[plies, p.points(Side.GOLD), p.points(Side.SILVER)] += 1
        for m in moves:
            walk(p.play(m), plies + 1)

    walk(position, 0)
    return found
