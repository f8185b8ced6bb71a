"""Text forms of squares and moves.

* Square: file letter ``A``..``J`` then rank ``1``..``10``, e.g. ``C3``, ``J10``.
* Move, canonical: the destination square, e.g. ``C3`` (a placement or a jump; the
  position says which). Landing on a double adds the chosen double after ``" x"``:
  ``E5 xB2``.
* The parser is lenient on case and spaces: ``e5xb2``, ``E5 X B2``, `` c3 `` are read;
  :func:`format_move` always prints the canonical form, so the two round-trip.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from games.cavalli.core.base import IllegalMoveError, InvalidMoveError, Move
from games.cavalli.core.board import FILES, SIZE, Square, name_of, square

if TYPE_CHECKING:
    from games.cavalli.core.position import Position

_SQUARE = r"([A-Ja-j])\s*(10|[1-9])"
_SQUARE_RE = re.compile(rf"\s*{_SQUARE}\s*\Z")
_MOVE_RE = re.compile(rf"\s*{_SQUARE}\s*(?:[xX]\s*{_SQUARE}\s*)?\Z")
_SQUARE_NAME_RE = re.compile(r"[A-Ja-j](?:10|[1-9])")


def parse_square(text: str) -> Square:
    """``"C3"`` -> ``22``. Raises :class:`ValueError` for anything not on the board.

    >>> parse_square("A1"), parse_square("j10"), parse_square(" c 3 ")
    (0, 99, 22)
    """
    match = _SQUARE_RE.match(text)
    if not match:
        raise ValueError(f"not a square: {text!r}")
    letter, rank = match.groups()
    return square(FILES.index(letter.upper()), int(rank))


def canonical_square(text: str) -> str:
    """The canonical name of the square ``text`` names, read strictly: a file letter in
    either case (as the move parser takes it) then the rank, nothing else: no spaces, no
    leading zero, no digits but ASCII ones. Raises :class:`ValueError` for anything else.

    >>> canonical_square("c3"), canonical_square("J10")
    ('C3', 'J10')
    >>> canonical_square(" c 3 ")
    Traceback (most recent call last):
    ...
    ValueError: not a square: ' c 3 '
    """
    if not isinstance(text, str) or not _SQUARE_NAME_RE.fullmatch(text):
        raise ValueError(f"not a square: {text!r}")
    return format_square(parse_square(text))


def format_square(sq: Square) -> str:
    """``22`` -> ``"C3"``.

    >>> format_square(0), format_square(99)
    ('A1', 'J10')
    """
    if type(sq) is not int or not 0 <= sq < SIZE * SIZE:
        raise ValueError(f"not a square: {sq!r}")
    return name_of(sq)


def format_move(move: Move) -> str:
    """Canonical notation.

    >>> format_move(Move(22)), format_move(Move(44, choice=11))
    ('C3', 'E5 xB2')
    """
    format_square(move.to)  # raises for anything that is not a square
    if move.choice is not None:
        format_square(move.choice)
    return str(move)


def parse_move_text(text: str) -> Move:
    """Syntax only: notation to a :class:`Move`, without looking at a position.

    >>> parse_move_text("e5xb2")
    Move(to=44, choice=11)
    """
    match = _MOVE_RE.match(text) if isinstance(text, str) else None
    if not match:
        raise InvalidMoveError(f"not Cavalli move notation: {text!r}")
    to_file, to_rank, choice_file, choice_rank = match.groups()
    to = square(FILES.index(to_file.upper()), int(to_rank))
    if choice_file is None:
        return Move(to)
    return Move(to, square(FILES.index(choice_file.upper()), int(choice_rank)))


def parse_move(text: str, position: Position) -> Move:
    """Parse ``text`` and check that it is legal in ``position``.

    >>> from games.cavalli import Board, Position
    >>> pos = Position.initial(Board.from_seed(1))
    >>> parse_move(" c1 ", pos)
    Move(to=2, choice=None)
    >>> parse_move("C2", pos)
    Traceback (most recent call last):
    ...
    games.cavalli.core.base.IllegalMoveError: C2 is not legal: white places its knight on rank 1
    """
    move = parse_move_text(text)
    reason = position.why_illegal(move)
    if reason is not None:
        raise IllegalMoveError(f"{format_move(move)} is not legal: {reason}")
    return move
