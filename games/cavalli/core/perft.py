"""Perft: the number of move sequences of a given length (each double choice a move).

:func:`perft` recurses on the raw ints of :mod:`.position` and counts the last ply
without playing it; :func:`perft_slow` walks :meth:`Position.legal_moves` and
:meth:`Position.apply`, the public API, and is what the fast path is tested against.
A finished game has no moves, so it contributes nothing below depth 0.
"""

from __future__ import annotations

from games.cavalli.core.base import Side
from games.cavalli.core.board import Board
from games.cavalli.core.movegen import NONE, land, raw_moves
from games.cavalli.core.position import Position


def _perft(board: Board, mask: int, mover: int, enemy: int, side: Side, depth: int) -> int:
    moves = raw_moves(board, mask, mover, enemy, side)
    if depth == 1:
        return len(moves)
    other = side.other
    total = 0
    for to, choice in moves:
        new_mask = land(board, mask, mover, enemy, to, choice)
        total += _perft(board, new_mask, enemy, to, other, depth - 1)
    return total


def perft(position: Position, depth: int) -> int:
    """Number of move sequences of length ``depth`` from ``position``.

    >>> pos = Position.initial(Board.from_seed(1))
    >>> perft(pos, 0), perft(pos, 1), perft(pos, 2) == perft_slow(pos, 2)
    (1, 10, True)
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    white = NONE if position.white is None else position.white
    black = NONE if position.black is None else position.black
    mover, enemy = (white, black) if position.to_move is Side.WHITE else (black, white)
    return _perft(position.board, position._mask, mover, enemy, position.to_move, depth)


def perft_slow(position: Position, depth: int) -> int:
    """:func:`perft` through the public API only."""
    if depth == 0:
        return 1
    return sum(perft_slow(position.apply(m), depth - 1) for m in position.legal_moves())
