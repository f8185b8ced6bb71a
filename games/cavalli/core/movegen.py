"""Move generation on plain ints, shared by :class:`~.position.Position` and :mod:`.perft`.

A state is the :class:`~.board.Board`, a 100-bit mask of unusable squares (bit = square),
the mover's and the enemy's knight squares (``-1``, :data:`NONE`, before a placement) and
the side to move (which only says where a placement goes). The rules these functions
implement are spelled out in :mod:`.position`.
"""

from __future__ import annotations

from games.cavalli.core.base import Side
from games.cavalli.core.board import HOME_RANK_SQUARES, KNIGHT_JUMPS, KNIGHT_MASKS, Board, reverse

RawMove = tuple[int, int]  # (to, choice); choice -1 when there is none
NONE = -1


def raw_moves(board: Board, mask: int, mover: int, enemy: int, side: Side) -> list[RawMove]:
    """Every legal move as ``(to, choice)``, in square order."""
    if mover < 0:
        candidates = HOME_RANK_SQUARES[side is Side.BLACK]
        blocked = mask
        left = mask
    else:
        candidates = KNIGHT_JUMPS[mover]
        blocked = mask if enemy < 0 else mask | KNIGHT_MASKS[enemy]
        left = mask | (1 << mover)
    if enemy >= 0:
        blocked |= 1 << enemy
        left |= 1 << enemy
    numbers = board.numbers
    out: list[RawMove] = []
    for to in candidates:
        if blocked >> to & 1:
            continue
        if numbers[to] % 11:
            out.append((to, NONE))
            continue
        taken = left | (1 << to)
        choices = [c for c in board.double_squares if not taken >> c & 1]
        if choices:
            out.extend((to, c) for c in choices)
        else:
            out.append((to, NONE))
    return out


def land(board: Board, mask: int, mover: int, enemy: int, to: int, choice: int) -> int:
    """The unusable mask after the mover (on ``mover``, -1 if unplaced) lands on ``to``."""
    if mover >= 0:
        mask |= 1 << mover
    number = board.numbers[to]
    if number % 11 == 0:
        if choice >= 0:
            mask |= 1 << choice
    else:
        rev = board.square_of(reverse(number))
        if rev != enemy:
            mask |= 1 << rev
    return mask
