"""Text forms: algebraic squares, move notation and the 15-line board diagram.

* Square: file letter (column, ``ABCDEFGHJKLMNOP``, no I) then rank (``row + 1``), e.g.
  ``H8`` is the Thudstone ``(7, 7)``.
* Move, canonical: ``<d|T> <from>-<to>[ x<sq>]...`` with captures sorted by rank then
  file, e.g. ``d F1-F5``, ``d C4-G8 xG8`` (a hurl), ``T G7-F6 xE5 xE6``. The parser also
  takes the compact ThudBoard/hexparrot form ``dF1-F5``, ``TG7-F6xE5xE6`` and any order of
  captures.
* Diagram: 15 lines of 15 characters, row 0 (rank 1) first: ``' '`` off the board, ``.``
  empty, ``d`` dwarf, ``T`` troll, ``R`` the Thudstone; then a line ``dwarf`` or ``troll``
  naming the side to move. Trailing spaces may be missing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .base import IllegalMoveError, InvalidMoveError, InvalidPositionError, Move, Side
from .board import FILES, SIZE, STONE, Square, on_board

if TYPE_CHECKING:
    from .base import CapturePolicy
    from .position import Position

_SQUARE = r"[A-HJ-Pa-hj-p](?:1[0-5]|[1-9])"
_MOVE_RE = re.compile(
    rf"\s*([dDtT])\s*({_SQUARE})\s*-\s*({_SQUARE})((?:\s*[xX]\s*{_SQUARE})*)\s*\Z"
)
_CAPTURE_RE = re.compile(rf"[xX]\s*({_SQUARE})")
_SQUARE_NAME_RE = re.compile(_SQUARE)


def parse_square(text: str) -> Square:
    """``"H8"`` -> ``(7, 7)``. Raises :class:`ValueError` for anything not on the board.

    >>> parse_square("F1"), parse_square("p8")
    ((0, 5), (7, 14))
    """
    text = text.strip()
    if len(text) < 2 or text[0].upper() not in FILES or not text[1:].isdigit():
        raise ValueError(f"not a square: {text!r}")
    col = FILES.index(text[0].upper())
    row = int(text[1:]) - 1
    if not on_board(row, col):
        raise ValueError(f"not a square on the Thud board: {text!r}")
    return (row, col)


def canonical_square(text: str) -> str:
    """The canonical name of the square ``text`` names, read strictly: a file letter in
    either case (as the move parser takes it) then the rank, nothing else: no spaces, no
    leading zero, no digits but ASCII ones. Raises :class:`ValueError` for anything else
    and for a square off the board.

    >>> canonical_square("f1"), canonical_square("P8")
    ('F1', 'P8')
    >>> canonical_square("F01")
    Traceback (most recent call last):
    ...
    ValueError: not a square: 'F01'
    """
    if not isinstance(text, str) or not _SQUARE_NAME_RE.fullmatch(text):
        raise ValueError(f"not a square: {text!r}")
    return format_square(parse_square(text))


def format_square(square: Square) -> str:
    """``(7, 7)`` -> ``"H8"``.

    >>> format_square((0, 5))
    'F1'
    """
    row, col = square
    if not on_board(row, col):
        raise ValueError(f"not a square on the Thud board: {square!r}")
    return f"{FILES[col]}{row + 1}"


def format_move(move: Move) -> str:
    """Canonical notation.

    >>> format_move(Move(Side.TROLL, (6, 6), (5, 5), ((4, 5), (4, 4))))
    'T G7-F6 xE5 xF5'
    """
    text = f"{move.side.letter} {format_square(move.from_sq)}-{format_square(move.to_sq)}"
    for sq in move.captures:
        text += f" x{format_square(sq)}"
    return text


def parse_move_text(text: str) -> Move:
    """Syntax only: turn notation into a :class:`Move` without looking at a position."""
    match = _MOVE_RE.match(text)
    if not match:
        raise InvalidMoveError(f"not Thud move notation: {text!r}")
    letter, frm, to, caps = match.groups()
    try:
        side = Side.DWARF if letter in "dD" else Side.TROLL
        captures = [parse_square(sq) for sq in _CAPTURE_RE.findall(caps)]
        move = Move(side, parse_square(frm), parse_square(to), tuple(captures))
    except ValueError as exc:
        raise InvalidMoveError(f"{exc} in move {text!r}") from None
    if len(move.captures) != len(captures):
        raise InvalidMoveError(f"a square is captured twice in {text!r}")
    return move


def parse_move(text: str, position: Position, policy: CapturePolicy | str = "subset") -> Move:
    """Parse ``text`` and check it is legal in ``position`` under ``policy``.

    >>> from games.thud import Position
    >>> parse_move("dF1-F5", Position.initial())
    Move(side=<Side.DWARF: 'dwarf'>, from_sq=(0, 5), to_sq=(4, 5), captures=())
    >>> parse_move("T G7-F6", Position.initial())
    Traceback (most recent call last):
    ...
    games.thud.base.IllegalMoveError: T G7-F6 is not legal here: dwarfs to move
    """
    move = parse_move_text(text)
    if move.side is not position.side_to_move:
        raise IllegalMoveError(
            f"{format_move(move)} is not legal here: {position.side_to_move}s to move"
        )
    if not position.is_legal(move, policy):
        raise IllegalMoveError(f"{format_move(move)} is not legal here")
    return move


# --- diagrams ---------------------------------------------------------------------------


def parse_diagram(text: str) -> tuple[frozenset[Square], frozenset[Square], Side]:
    """Read a diagram into ``(dwarfs, trolls, side_to_move)``; :class:`InvalidPositionError`
    (one line, naming the square) on any problem."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) != SIZE + 1:
        raise InvalidPositionError(
            f"expected {SIZE} board lines and a side line, got {len(lines)} lines"
        )
    side_text = lines[SIZE].strip().lower()
    if side_text not in ("dwarf", "troll"):
        raise InvalidPositionError(f"side to move must be 'dwarf' or 'troll', not {side_text!r}")
    dwarfs: set[Square] = set()
    trolls: set[Square] = set()
    stones: list[Square] = []
    for row, line in enumerate(lines[:SIZE]):
        if len(line) > SIZE:
            if line[SIZE:].strip():
                raise InvalidPositionError(f"line {row + 1} is longer than {SIZE} characters")
            line = line[:SIZE]
        line = line.ljust(SIZE)
        for col, ch in enumerate(line):
            where = f"row {row + 1} column {col + 1}"
            if not on_board(row, col):
                if ch != " ":
                    raise InvalidPositionError(f"{ch!r} at {where} is off the board")
                continue
            where = format_square((row, col))
            if ch == "d":
                dwarfs.add((row, col))
            elif ch == "T":
                trolls.add((row, col))
            elif ch == "R":
                stones.append((row, col))
            elif ch == " ":
                raise InvalidPositionError(f"square {where} is blank (use '.' for empty)")
            elif ch != ".":
                raise InvalidPositionError(f"unknown character {ch!r} on {where}")
    if stones != [STONE]:
        found = ", ".join(format_square(sq) for sq in stones) or "none"
        raise InvalidPositionError(f"the Thudstone must be on H8 only (found: {found})")
    return frozenset(dwarfs), frozenset(trolls), Side(side_text)


def format_diagram(dwarfs: frozenset[Square], trolls: frozenset[Square], side_to_move: Side) -> str:
    rows = []
    for row in range(SIZE):
        chars = []
        for col in range(SIZE):
            sq = (row, col)
            if not on_board(row, col):
                chars.append(" ")
            elif sq == STONE:
                chars.append("R")
            elif sq in dwarfs:
                chars.append("d")
            elif sq in trolls:
                chars.append("T")
            else:
                chars.append(".")
        rows.append("".join(chars))
    rows.append(side_to_move.value)
    return "\n".join(rows) + "\n"
