"""Tiny: three pawns a side on a 3×3 board (a scored Hexapawn).

Rules:

* Files ``A``-``C``, ranks ``1``-``3``. Gold's pawns start on rank 1 and move first, up the
  board; silver's start on rank 3 and move down.
* A pawn steps straight forward onto an empty square, or diagonally forward onto an enemy
  pawn, which it captures (removes). A pawn on the far rank cannot move.
* The battle ends when the side to move has no legal move. Each side scores one point
  per pawn of its own on the board, three for a pawn on the far rank (so 0 to 9); the
  higher score wins, equal scores draw.

Every move advances a pawn, so a battle lasts at most 12 plies (each pawn steps twice):
the whole game tree is small enough to search completely.

A square is an int ``0..8``: ``rank * 3 + file`` (``A1`` is 0, ``C3`` is 8).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

SIZE = 3
SQUARES = tuple(range(SIZE * SIZE))
PAWNS = 3
#: A pawn on the board scores one point, on the far rank three.
PAWN_POINTS, CROSSED_POINTS = 1, 3
MAX_POINTS = PAWNS * CROSSED_POINTS


class InvalidPositionError(ValueError):
    """A text that is not a Tiny position."""


class Side(Enum):
    GOLD = "gold"
    SILVER = "silver"

    @property
    def other(self) -> Side:
        return Side.SILVER if self is Side.GOLD else Side.GOLD

    @property
    def forward(self) -> int:
        """The rank step of this side's pawns: gold goes up, silver down."""
        return 1 if self is Side.GOLD else -1

    @property
    def far_rank(self) -> int:
        return SIZE - 1 if self is Side.GOLD else 0

    @property
    def letter(self) -> str:
        return "g" if self is Side.GOLD else "s"


def file_of(square: int) -> int:
    return square % SIZE


def rank_of(square: int) -> int:
    return square // SIZE


@dataclass(frozen=True)
class Move:
    """A pawn's move from ``from_sq`` to ``to_sq``; ``capture`` when it takes a pawn there."""

    from_sq: int
    to_sq: int
    capture: bool = False


@dataclass(frozen=True)
class Position:
    """The pawns of each side and the side to move (immutable).

    >>> p = Position.initial()
    >>> p.to_compact(), len(p.legal_moves())
    ('gold sss/.../ggg', 3)
    """

    gold: frozenset[int]
    silver: frozenset[int]
    to_move: Side

    @classmethod
    def initial(cls) -> Position:
        top = SIZE * (SIZE - 1)
        return cls(frozenset(range(SIZE)), frozenset(range(top, top + SIZE)), Side.GOLD)

    def pawns(self, side: Side) -> frozenset[int]:
        return self.gold if side is Side.GOLD else self.silver

    def piece_at(self, square: int) -> Side | None:
        if square in self.gold:
            return Side.GOLD
        if square in self.silver:
            return Side.SILVER
        return None

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move, by origin then destination."""
        side = self.to_move
        mine, theirs = self.pawns(side), self.pawns(side.other)
        moves = []
        for sq in sorted(mine):
            rank = rank_of(sq) + side.forward
            if not 0 <= rank < SIZE:
                continue
            for df in (-1, 0, 1):
                f = file_of(sq) + df
                if not 0 <= f < SIZE:
                    continue
                to = rank * SIZE + f
                if df == 0 and to not in mine and to not in theirs:
                    moves.append(Move(sq, to))
                elif df != 0 and to in theirs:
                    moves.append(Move(sq, to, capture=True))
        return sorted(moves, key=lambda m: (m.from_sq, m.to_sq))

    def play(self, move: Move) -> Position:
        """The position after ``move`` (assumed legal: see :meth:`legal_moves`)."""
        side = self.to_move
        mine = (self.pawns(side) - {move.from_sq}) | {move.to_sq}
        theirs = self.pawns(side.other) - {move.to_sq}
        if side is Side.GOLD:
            return Position(mine, theirs, side.other)
        return Position(theirs, mine, side.other)

    def pass_turn(self) -> Position:
        """The same pawns, the other side to move (a forfeited turn)."""
        return Position(self.gold, self.silver, self.to_move.other)

    def is_over(self) -> bool:
        return not self.legal_moves()

    def points(self, side: Side) -> int:
        far = side.far_rank
        return sum(CROSSED_POINTS if rank_of(sq) == far else PAWN_POINTS for sq in self.pawns(side))

    def to_compact(self) -> str:
        """``"<side to move> <rank 3>/<rank 2>/<rank 1>"``: ``g`` gold, ``s`` silver, ``.``."""
        rows = []
        for rank in reversed(range(SIZE)):
            row = ""
            for f in range(SIZE):
                side = self.piece_at(rank * SIZE + f)
                row += side.letter if side else "."
            rows.append(row)
        return f"{self.to_move.value} {'/'.join(rows)}"

    @classmethod
    def from_compact(cls, text: str) -> Position:
        """The position written by :meth:`to_compact`; :class:`InvalidPositionError` else.

        >>> moves = Position.from_compact("silver s.s/.g./g.g").legal_moves()
        >>> len(moves), [m for m in moves if m.capture][0]
        (4, Move(from_sq=6, to_sq=4, capture=True))
        """
        parts = text.split(" ")
        if len(parts) != 2 or parts[0] not in (Side.GOLD.value, Side.SILVER.value):
            raise InvalidPositionError(f"not a Tiny position: {text!r}")
        rows = parts[1].split("/")
        if len(rows) != SIZE or any(len(r) != SIZE or set(r) - set("gs.") for r in rows):
            raise InvalidPositionError(f"not a Tiny board: {parts[1]!r}")
        gold, silver = set(), set()
        for i, row in enumerate(rows):
            rank = SIZE - 1 - i
            for f, char in enumerate(row):
                if char == "g":
                    gold.add(rank * SIZE + f)
                elif char == "s":
                    silver.add(rank * SIZE + f)
        if len(gold) > PAWNS or len(silver) > PAWNS:
            raise InvalidPositionError(f"more than {PAWNS} pawns a side: {parts[1]!r}")
        return cls(frozenset(gold), frozenset(silver), Side(parts[0]))
