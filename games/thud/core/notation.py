"""Text forms: move notation and the 15-line board diagram (square names are in
:mod:`.squares`).

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

from games.thud.core.base import (
    CapturePolicy,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Side,
)
from games.thud.core.board import SIZE, STONE, Square, on_board
from games.thud.core.squares import SQUARE_PATTERN, format_square, parse_square

if TYPE_CHECKING:
    from games.thud.core.position import Position

_MOVE_RE = re.compile(
    rf"\s*([dDtT])\s*({SQUARE_PATTERN})\s*-\s*({SQUARE_PATTERN})((?:\s*[xX]\s*{SQUARE_PATTERN})*)\s*\Z"
)
_CAPTURE_RE = re.compile(rf"[xX]\s*({SQUARE_PATTERN})")


def format_move(move: Move) -> str:
    """Canonical notation.

    >>> format_move(Move(Side.TROLL, (6, 6), (5, 5), ((4, 5), (4, 4))))
    'T G7-F6 xE5 xF5'
    """
    return str(move)


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
    games.thud.core.base.IllegalMoveError: T G7-F6 is not legal here: dwarfs to move
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
