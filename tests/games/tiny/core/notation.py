"""Tiny's notation: squares ``A1``..``C3``; a step ``A1-A2``, a capture ``A2xB3``.

The notation is context-free: a move's text says its kind (``-`` a step, ``x`` a
capture), so a record can be read without the positions (:mod:`.records`). Lower case
and spaces around the sign are read; the canonical form is upper case without spaces.

>>> format_move(parse_move_text(" a1 - a2 ")), format_move(parse_move_text("b2XC3"))
('A1-A2', 'B2xC3')
"""

from __future__ import annotations

import re

from tests.games.tiny.core.position import SIZE, Move, Position, file_of, rank_of

FILES = "ABC"
_SQUARE_RE = re.compile(r"[A-Ca-c][1-3]")
_MOVE_RE = re.compile(r"\s*([A-Ca-c][1-3])\s*([-xX])\s*([A-Ca-c][1-3])\s*")


class InvalidMoveError(ValueError):
    """Text that is not a Tiny move."""


class IllegalMoveError(ValueError):
    """A well-written move that the position does not allow."""


def format_square(square: int) -> str:
    return f"{FILES[file_of(square)]}{rank_of(square) + 1}"


def parse_square(text: str) -> int:
    """The square ``text`` names (``"a1"`` or ``"A1"``); ``ValueError`` for anything else.

    >>> parse_square("c3"), format_square(parse_square("b2"))
    (8, 'B2')
    """
    if not _SQUARE_RE.fullmatch(text):
        raise ValueError(f"not a square of the 3×3 board: {text!r}")
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0].upper())


def canonical_square(text: str) -> str:
    return format_square(parse_square(text))


def format_move(move: Move) -> str:
    sign = "x" if move.capture else "-"
    return f"{format_square(move.from_sq)}{sign}{format_square(move.to_sq)}"


def parse_move_text(text: str) -> Move:
    """The move ``text`` writes, whatever the position; :class:`InvalidMoveError` else."""
    match = _MOVE_RE.fullmatch(text)
    if not match:
        raise InvalidMoveError(f"not a move (write A1-A2, or A2xB3 for a capture): {text!r}")
    src, sign, dst = match.groups()
    return Move(parse_square(src), parse_square(dst), capture=sign in "xX")


def parse_move(text: str, position: Position) -> Move:
    """The legal move of ``position`` that ``text`` writes; :class:`InvalidMoveError` for
    text that is no move, :class:`IllegalMoveError` for a move not allowed here."""
    move = parse_move_text(text)
    if move in position.legal_moves():
        return move
    if move.capture and Move(move.from_sq, move.to_sq) in position.legal_moves():
        raise IllegalMoveError(f"{format_move(move)} takes nothing: write it with '-'")
    if not move.capture and Move(move.from_sq, move.to_sq, True) in position.legal_moves():
        raise IllegalMoveError(f"{format_move(move)} is a capture: write it with 'x'")
    raise IllegalMoveError(f"{format_move(move)} is not a legal move here")
