"""Perft: count the leaf nodes of the move tree to a fixed depth.

:func:`perft` is the fast path: it works on raw bitboards and, at the last ply, counts
moves with :func:`~games.thud.core.movegen.count_dwarf_moves` /
:func:`~games.thud.core.movegen.count_troll_moves` instead of generating them (a troll step
next to k dwarfs counts 2**k under ``subset``). :func:`perft_slow` walks
:meth:`Position.legal_moves` and :meth:`Position.apply`, the public API, and is what the
fast path is tested against.
"""

from __future__ import annotations

from games.thud.core.base import CapturePolicy, Side
from games.thud.core.movegen import count_dwarf_moves, count_troll_moves, dwarf_moves, troll_moves
from games.thud.core.position import Position


def _perft_dwarf(d: int, t: int, depth: int, policy: str) -> int:
    if depth == 1:
        return count_dwarf_moves(d, t)
    total = 0
    for f, to, cap in dwarf_moves(d, t):
        total += _perft_troll(d ^ (1 << f) ^ (1 << to), t & ~cap, depth - 1, policy)
    return total


def _perft_troll(d: int, t: int, depth: int, policy: str) -> int:
    if depth == 1:
        return count_troll_moves(d, t, policy)
    total = 0
    for f, to, cap in troll_moves(d, t, policy):
        total += _perft_dwarf(d & ~cap, t ^ (1 << f) ^ (1 << to), depth - 1, policy)
    return total


def perft(
    position: Position, depth: int, policy: CapturePolicy | str = CapturePolicy.SUBSET
) -> int:
    """Number of move sequences of length ``depth`` from ``position``.

    >>> perft(Position.initial(), 2)
    22624
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    policy = CapturePolicy(policy).value
    d, t = position._d, position._t
    if position.side_to_move is Side.DWARF:
        return _perft_dwarf(d, t, depth, policy)
    return _perft_troll(d, t, depth, policy)


def perft_slow(
    position: Position, depth: int, policy: CapturePolicy | str = CapturePolicy.SUBSET
) -> int:
    """:func:`perft` through the public API only (Move objects, no bulk counting)."""
    if depth == 0:
        return 1
    return sum(
        perft_slow(position.apply(move), depth - 1, policy) for move in position.legal_moves(policy)
    )
