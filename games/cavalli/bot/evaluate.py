"""A static evaluation of a Battaglia di Cavalli position, on raw masks (see :mod:`..movegen`).

Scores are in hundredths of a point from the side to move's view. The search adds the
points already scored (:func:`final_score` at the end); this module scores what the
knights can still take:

* *territory*: a race of both knights over the usable squares (a breadth-first spread by
  knight jumps, both at once, the side to move first on a tie): the squares each reaches
  first are the ones it can still hope to take, counted and summed by their numbers;
* the *next take*: the best number the side to move can land on now (it will), and the
  best the other can take next;
* *mobility*: the landings each knight has now, with a penalty for being nearly stuck
  (a side with no legal move ends the game, whoever is ahead).
"""

from __future__ import annotations

from games.cavalli.core.board import HOME_RANK_SQUARES, KNIGHT_MASKS, SIZE, Board
from games.rules.interface import WIN

__all__ = ["WIN", "evaluate", "final_score", "spread", "value_tables"]

FULL = (1 << SIZE * SIZE) - 1
_FILE_MASKS = tuple(sum(1 << (r * SIZE + f) for r in range(SIZE)) for f in range(SIZE))
_NOT_A = FULL & ~_FILE_MASKS[0]
_NOT_AB = _NOT_A & ~_FILE_MASKS[1]
_NOT_J = FULL & ~_FILE_MASKS[9]
_NOT_IJ = _NOT_J & ~_FILE_MASKS[8]
HOME_MASKS = (
    sum(1 << sq for sq in HOME_RANK_SQUARES[0]),
    sum(1 << sq for sq in HOME_RANK_SQUARES[1]),
)

# Weights in hundredths of a point.
W_TERRITORY_VALUE = 20  # per point on the squares a knight reaches first
W_TERRITORY_SQUARE = 40  # per square reached first
W_NEXT_MINE = 45  # per point of the best landing of the side to move
W_NEXT_THEIRS = 25  # per point of the other side's best landing
W_MOBILITY = 60  # per landing
W_CRAMPED = 400  # a knight with one landing left
#: Fronts spread at most this many jumps (the board is ten squares across).
SPREAD_STEPS = 8


def spread(mask: int) -> int:
    """Every square a knight jumps to from a square of ``mask``.

    >>> spread(1 << 0) == KNIGHT_MASKS[0] and spread(1 << 55) == KNIGHT_MASKS[55]
    True
    """
    a = mask & _NOT_J
    out = (a << 21) | (a >> 19)
    a = mask & _NOT_A
    out |= (a << 19) | (a >> 21)
    a = mask & _NOT_IJ
    out |= (a << 12) | (a >> 8)
    a = mask & _NOT_AB
    out |= (a << 8) | (a >> 12)
    return out & FULL


def value_tables(board: Board) -> tuple[tuple[int, ...], ...]:
    """Per byte of a mask (13 of them), the sum of the numbers its bits stand on."""
    tables = []
    for chunk in range(13):
        table = []
        for byte in range(256):
            total = 0
            for bit in range(8):
                sq = chunk * 8 + bit
                if byte >> bit & 1 and sq < SIZE * SIZE:
                    total += board.numbers[sq]
            table.append(total)
        tables.append(tuple(table))
    return tuple(tables)


def mask_value(mask: int, tables: tuple[tuple[int, ...], ...]) -> int:
    total = 0
    chunk = 0
    while mask:
        total += tables[chunk][mask & 255]
        mask >>= 8
        chunk += 1
    return total


def best_number(mask: int, numbers: tuple[int, ...]) -> int:
    best = 0
    while mask:
        low = mask & -mask
        n = numbers[low.bit_length() - 1]
        if n > best:
            best = n
        mask ^= low
    return best


def final_score(diff: int) -> int:
    """A finished game, from the view of the side ``diff`` points ahead (or behind)."""
    if diff > 0:
        return WIN + 100 * diff
    if diff < 0:
        return -WIN + 100 * diff
    return 0


def evaluate(
    board: Board,
    tables: tuple[tuple[int, ...], ...],
    mask: int,
    mover: int,
    enemy: int,
    mover_is_white: bool,
) -> int:
    """What the knights can still take, for the side to move (points scored excluded)."""
    occupied = 0 if mover < 0 else 1 << mover
    if enemy >= 0:
        occupied |= 1 << enemy
    free = FULL & ~mask & ~occupied
    if mover < 0:
        mine = HOME_MASKS[0 if mover_is_white else 1] & free
    else:
        mine = KNIGHT_MASKS[mover] & free
        if enemy >= 0:
            mine &= ~KNIGHT_MASKS[enemy]
    if enemy < 0:
        theirs = HOME_MASKS[1 if mover_is_white else 0] & free
    else:
        theirs = KNIGHT_MASKS[enemy] & free
        if mover >= 0:
            theirs &= ~KNIGHT_MASKS[mover]
    numbers = board.numbers
    score = W_NEXT_MINE * best_number(mine, numbers) - W_NEXT_THEIRS * best_number(theirs, numbers)
    my_moves, their_moves = mine.bit_count(), theirs.bit_count()
    score += W_MOBILITY * (my_moves - their_moves)
    if my_moves == 1:
        score -= W_CRAMPED
    if their_moves == 1:
        score += W_CRAMPED
    theirs &= ~mine
    my_land, their_land = mine, theirs
    seen = mine | theirs
    for _ in range(SPREAD_STEPS):
        mine = spread(mine) & free & ~seen
        theirs = spread(theirs) & free & ~seen & ~mine
        if not mine and not theirs:
            break
        seen |= mine | theirs
        my_land |= mine
        their_land |= theirs
    score += W_TERRITORY_SQUARE * (my_land.bit_count() - their_land.bit_count())
    score += W_TERRITORY_VALUE * (mask_value(my_land, tables) - mask_value(their_land, tables))
    return score
