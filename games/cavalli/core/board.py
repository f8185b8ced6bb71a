"""Board geometry and the numbered board of Battaglia di Cavalli.

Terminology and invariants:

* A *square* is an ``int`` index ``0..99``: ``index = (rank - 1) * 10 + file``, with
  ``file`` 0..9 for the letters ``A``..``J`` (left to right) and ``rank`` 1..10 (bottom
  to top). So ``A1`` is 0, ``J1`` is 9, ``A2`` is 10 and ``J10`` is 99.
* A :class:`Board` puts a distinct *number* 00..99 on every square: ``numbers[square]``.
  It never changes during a game, and both games of a match are played on the same one.
* :meth:`Board.from_seed` shuffles ``list(range(100))`` with ``random.Random(seed)`` and
  reads the result in square order, so ``numbers[0]`` lands on A1 and ``numbers[99]`` on
  J10. ``random.Random`` with an integer seed gives the same sequence on every machine
  and every Python 3 version.
* The text form (:meth:`Board.parse`, :meth:`Board.format`) is what the command line
  prints: 10 lines, rank 10 first, each 10 two-digit numbers separated by one space,
  file A first. So the *last* line starts with the number on A1.
* A *double* is a number with two equal digits: 00, 11, ..., 99. The *reverse* of a
  number swaps its two digits, a leading zero included: 05 <-> 50.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

Square = int

SIZE = 10
FILES = "ABCDEFGHIJ"
SQUARES: tuple[Square, ...] = tuple(range(SIZE * SIZE))
DOUBLES: tuple[int, ...] = tuple(11 * d for d in range(10))

_KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def square(file: int, rank: int) -> Square:
    """The square on ``file`` (0 = A) and ``rank`` (1..10).

    >>> square(0, 1), square(9, 1), square(0, 10), square(9, 10)
    (0, 9, 90, 99)
    """
    if not (0 <= file < SIZE and 1 <= rank <= SIZE):
        raise ValueError(f"no square at file {file}, rank {rank}")
    return (rank - 1) * SIZE + file


def name_of(sq: Square) -> str:
    """The algebraic name of a valid square; :func:`.notation.format_square` checks it.

    >>> name_of(0), name_of(22), name_of(99)
    ('A1', 'C3', 'J10')
    """
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


def file_of(sq: Square) -> int:
    return sq % SIZE


def rank_of(sq: Square) -> int:
    return sq // SIZE + 1


def _jumps(sq: Square) -> tuple[Square, ...]:
    f, r = file_of(sq), rank_of(sq)
    return tuple(
        square(f + df, r + dr)
        for df, dr in _KNIGHT_STEPS
        if 0 <= f + df < SIZE and 1 <= r + dr <= SIZE
    )


#: ``KNIGHT_JUMPS[sq]``: the squares a knight on ``sq`` jumps to (and so attacks), sorted.
KNIGHT_JUMPS: tuple[tuple[Square, ...], ...] = tuple(tuple(sorted(_jumps(sq))) for sq in SQUARES)
#: The same as bit masks (bit ``sq`` set for each square).
KNIGHT_MASKS: tuple[int, ...] = tuple(sum(1 << t for t in jumps) for jumps in KNIGHT_JUMPS)
#: ``HOME_RANK_SQUARES[0]`` is rank 1 (white places there), ``[1]`` rank 10 (black).
HOME_RANK_SQUARES: tuple[tuple[Square, ...], tuple[Square, ...]] = (
    tuple(square(f, 1) for f in range(SIZE)),
    tuple(square(f, SIZE) for f in range(SIZE)),
)


def mask_of(squares: frozenset[Square]) -> int:
    """The bit mask of ``squares`` (bit ``sq`` set for each).

    >>> mask_of(frozenset({0, 3}))
    9
    """
    mask = 0
    for sq in squares:
        mask |= 1 << sq
    return mask


def squares_of(mask: int) -> frozenset[Square]:
    """The squares of a bit mask (the inverse of :func:`mask_of`)."""
    return frozenset(sq for sq in SQUARES if mask >> sq & 1)


def is_square(value: object) -> bool:
    """Whether ``value`` is a square: an int (not a bool) on the board."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(SQUARES)


def is_double(number: int) -> bool:
    """Two equal digits (00 counts).

    >>> is_double(66), is_double(0), is_double(57)
    (True, True, False)
    """
    return number % 11 == 0


def reverse(number: int) -> int:
    """The number with its two digits swapped (a leading zero counts as a digit).

    >>> reverse(57), reverse(5), reverse(50), reverse(66)
    (75, 50, 5, 66)
    """
    return (number % 10) * 10 + number // 10


class InvalidBoardError(ValueError):
    """A text or list does not describe a board: wrong shape, not a number, or not a
    permutation of 00..99."""


_TOKEN = re.compile(r"[0-9]+\Z")


@dataclass(frozen=True)
class Board:
    """The numbers on the 100 squares, ``numbers[square]``; immutable and hashable.

    >>> board = Board.from_seed(1)
    >>> board.number_at(0) == board.numbers[0]
    True
    >>> board.square_of(board.number_at(57))
    57
    >>> Board.parse(board.format()) == board
    True
    """

    numbers: tuple[int, ...]
    _squares: tuple[Square, ...] = field(init=False, repr=False, compare=False)
    #: The squares holding the ten doubles, in square order.
    double_squares: tuple[Square, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        numbers = self.numbers
        if not isinstance(numbers, tuple):
            try:
                numbers = tuple(numbers)
            except TypeError:
                raise InvalidBoardError("a board is a sequence of 100 numbers") from None
        if len(numbers) != SIZE * SIZE:
            raise InvalidBoardError(f"a board has 100 numbers, not {len(numbers)}")
        if not all(type(n) is int for n in numbers):
            raise InvalidBoardError("every number on a board must be an integer")
        _check_permutation(numbers)
        squares = [0] * (SIZE * SIZE)
        for sq, n in enumerate(numbers):
            squares[n] = sq
        object.__setattr__(self, "numbers", numbers)
        object.__setattr__(self, "_squares", tuple(squares))
        object.__setattr__(self, "double_squares", tuple(sorted(squares[d] for d in DOUBLES)))

    # --- construction and text ----------------------------------------------------------

    @classmethod
    def from_seed(cls, seed: int) -> Board:
        """The board for a non-negative integer ``seed`` (same on every machine).

        >>> Board.from_seed(42) == Board.from_seed(42) != Board.from_seed(43)
        True
        """
        if type(seed) is not int or seed < 0:
            raise ValueError(f"a board seed is a non-negative integer, not {seed!r}")
        numbers = list(range(SIZE * SIZE))
        random.Random(seed).shuffle(numbers)
        return cls(tuple(numbers))

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read the 10-line text form (see the module docstring).

        Lenient on whitespace: any run of spaces or tabs separates numbers, blank lines
        before and after the board are ignored, and ``7`` is read as ``07``. Raises
        :class:`InvalidBoardError` with a one-line message naming the problem.
        """
        lines = [line.strip() for line in text.splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        while lines and not lines[0]:
            lines.pop(0)
        if len(lines) != SIZE:
            raise InvalidBoardError(f"a board has {SIZE} lines, not {len(lines)}")
        numbers = [0] * (SIZE * SIZE)
        for i, line in enumerate(lines):
            rank = SIZE - i
            tokens = line.split()
            if len(tokens) != SIZE:
                raise InvalidBoardError(
                    f"line {i + 1} (rank {rank}) has {len(tokens)} numbers, not {SIZE}"
                )
            for file, token in enumerate(tokens):
                if not _TOKEN.match(token):
                    raise InvalidBoardError(
                        f"{token!r} on line {i + 1} (square {name_of(square(file, rank))}) "
                        "is not a number"
                    )
                numbers[square(file, rank)] = int(token)
        return cls(tuple(numbers))

    def format(self) -> str:
        """The text form: 10 lines, rank 10 first, two-digit numbers, one space apart."""
        return "".join(f"{' '.join(f'{n:02d}' for n in row)}\n" for row in self.rows())

    def rows(self) -> list[tuple[int, ...]]:
        """The numbers rank by rank, rank 10 first, each row file A first."""
        return [self.numbers[(rank - 1) * SIZE : rank * SIZE] for rank in range(SIZE, 0, -1)]

    @classmethod
    def from_compact(cls, text: str) -> Board:
        """Read :meth:`to_compact`: 200 digits, two per square in square order (A1 first)."""
        if len(text) != 2 * SIZE * SIZE or not text.isascii() or not text.isdigit():
            raise InvalidBoardError("a compact board is 200 digits")
        return cls(tuple(int(text[i : i + 2]) for i in range(0, len(text), 2)))

    def to_compact(self) -> str:
        return "".join(f"{n:02d}" for n in self.numbers)

    def __repr__(self) -> str:
        return f"Board.from_compact({self.to_compact()!r})"

    # --- queries ------------------------------------------------------------------------

    def number_at(self, sq: Square) -> int:
        return self.numbers[sq]

    def square_of(self, number: int) -> Square:
        """The square that holds ``number``."""
        return self._squares[number]


def _check_permutation(numbers: tuple[int, ...]) -> None:
    seen: set[int] = set()
    for sq, n in enumerate(numbers):
        name = name_of(sq)
        if not 0 <= n < SIZE * SIZE:
            raise InvalidBoardError(f"{n} on {name} is not a number from 00 to 99")
        if n in seen:
            raise InvalidBoardError(f"{n:02d} appears twice (again on {name})")
        seen.add(n)
