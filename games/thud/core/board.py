"""Board geometry: squares, algebraic names, bit indices, rays and neighbour masks.

Terminology and invariants:

* A *square* is a ``(row, col)`` tuple, 0-based, row 0 on top. It exists iff
  ``|row - 7| + |col - 7| <= 9``: a 15x15 grid minus four corner triangles, 165 squares.
* The *Thudstone* sits on ``(7, 7)`` (H8) for the whole battle. No piece stands on it,
  passes it, or counts it as part of a line.
* The *file* letter is the column, ``ABCDEFGHJKLMNOP`` (no I); the *rank* is ``row + 1``.
* Bitboards are Python ints. Square ``(row, col)`` is bit ``row * 16 + col``: the 16th
  column is a guard that never holds a piece, so shifting a mask by a direction's stride
  can never wrap a piece from one edge to the other once the result is masked with a set
  of real squares.
"""

from __future__ import annotations

from collections.abc import Iterator

Square = tuple[int, int]

SIZE = 15
STRIDE = 16
CENTRE = 7
STONE: Square = (CENTRE, CENTRE)
FILES = "ABCDEFGHJKLMNOP"

#: The 8 directions as ``(d_row, d_col)``; ``DIRECTIONS[i]`` and ``DIRECTIONS[7 - i]`` are
#: opposite, which :data:`OPPOSITE` relies on.
DIRECTIONS: tuple[Square, ...] = (
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
)
OPPOSITE: tuple[int, ...] = tuple(7 - i for i in range(8))
#: Bit-index offset of one step in each direction.
SHIFTS: tuple[int, ...] = tuple(dr * STRIDE + dc for dr, dc in DIRECTIONS)


def on_board(row: int, col: int) -> bool:
    """Whether ``(row, col)`` is one of the 165 squares.

    >>> on_board(7, 7), on_board(0, 5), on_board(0, 4), on_board(14, 9)
    (True, True, False, True)
    """
    return 0 <= row < SIZE and 0 <= col < SIZE and abs(row - CENTRE) + abs(col - CENTRE) <= 9


#: Every square in (row, col) order, the Thudstone included.
SQUARES: tuple[Square, ...] = tuple(
    (r, c) for r in range(SIZE) for c in range(SIZE) if on_board(r, c)
)


def bit_index(square: Square) -> int:
    return square[0] * STRIDE + square[1]


#: Stands in :data:`SQUARE_AT` for bit indices that are not squares.
NO_SQUARE: Square = (-1, -1)
#: Bit index -> square (:data:`NO_SQUARE` for guard columns and cut corners).
SQUARE_AT: tuple[Square, ...] = tuple(
    (i // STRIDE, i % STRIDE)
    if i % STRIDE < SIZE and on_board(i // STRIDE, i % STRIDE)
    else NO_SQUARE
    for i in range(SIZE * STRIDE)
)

STONE_BIT = 1 << bit_index(STONE)
BOARD_MASK = sum(1 << bit_index(sq) for sq in SQUARES)
#: Squares a piece may stand on: the board without the Thudstone.
PLAYABLE = BOARD_MASK & ~STONE_BIT


def _ray(square: Square, direction: Square) -> tuple[int, ...]:
    out = []
    r, c = square
    dr, dc = direction
    r, c = r + dr, c + dc
    while on_board(r, c):
        out.append(bit_index((r, c)))
        r, c = r + dr, c + dc
    return tuple(out)


#: ``RAYS[i][d]``: bit indices of the squares from square ``i`` in direction ``d`` up to the
#: board edge, nearest first. The Thudstone is included; callers stop at it because it is
#: never empty.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(sq, d) for d in DIRECTIONS) if sq != NO_SQUARE else ((),) * 8 for sq in SQUARE_AT
)

#: ``ADJACENT[i]``: mask of the on-board neighbours of square ``i`` (the stone excluded).
ADJACENT: tuple[int, ...] = tuple(
    sum(1 << ray[0] for ray in rays if ray) & PLAYABLE for rays in RAYS
)


def iter_bits(mask: int) -> Iterator[int]:
    """Bit indices set in ``mask``, lowest first (which is (row, col) order)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(squares: Iterator[Square] | frozenset[Square] | tuple[Square, ...]) -> int:
    mask = 0
    for sq in squares:
        mask |= 1 << bit_index(sq)
    return mask


def squares_of(mask: int) -> tuple[Square, ...]:
    """The squares of ``mask`` in (row, col) order."""
    return tuple(SQUARE_AT[i] for i in iter_bits(mask))
