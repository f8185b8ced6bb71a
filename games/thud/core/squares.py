"""Square names: the algebraic name of a square on the Thud board, both ways.

A file letter (column, ``ABCDEFGHJKLMNOP``, no I) then the rank (``row + 1``), e.g. ``H8``
is the Thudstone ``(7, 7)``. The value types (:mod:`.base`) and the notation
(:mod:`.notation`) both name squares, so the names live here, below both.
"""

from __future__ import annotations

import re

from games.thud.core.board import FILES, Square, on_board

#: A square name as the move parser reads it: a file letter in either case, then the rank.
SQUARE_PATTERN = r"[A-HJ-Pa-hj-p](?:1[0-5]|[1-9])"
_SQUARE_NAME_RE = re.compile(SQUARE_PATTERN)


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
