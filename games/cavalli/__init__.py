"""Battaglia di Cavalli (Andy Lewicki) rules engine: pure Python, no Django.

Two knights on a 10x10 board of the numbers 00..99 score the numbers they land on and
burn squares as they go. Geometry and the numbered :class:`Board` in :mod:`.core.board`, value
types in :mod:`.core.base`, the immutable :class:`Position` and the rules in :mod:`.core.position`
(move generation in :mod:`.core.movegen`, the functional API in :mod:`.core.play`),
text forms in :mod:`.core.notation`, pictures in :mod:`.core.diagram`, perft in :mod:`.core.perft` and
the command line in :mod:`.cli`.

>>> board = Board.from_seed(7)
>>> board.number_at(parse_square("A1"))  # a double: landing on it burns another double
33
>>> pos = initial(board)
>>> pos = apply(pos, parse_move("a1 x c1", pos))
>>> pos.scores, pos.is_usable(parse_square("C1")), format_move(legal_moves(pos)[0])
((33, 0), False, 'A10')
>>> outcome(pos) is None
True
"""

from __future__ import annotations

from games.cavalli.core.base import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Side,
    Termination,
)
from games.cavalli.core.board import FILES, SQUARES, Board, InvalidBoardError, Square
from games.cavalli.core.diagram import Cell, cells, diagram
from games.cavalli.core.notation import format_move, format_square, parse_move, parse_square
from games.cavalli.core.perft import perft
from games.cavalli.core.play import apply, initial, legal_moves, outcome, replay
from games.cavalli.core.position import Position

__all__ = [
    "FILES",
    "SQUARES",
    "Board",
    "Cell",
    "IllegalMoveError",
    "InvalidBoardError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Position",
    "Side",
    "Square",
    "Termination",
    "apply",
    "cells",
    "diagram",
    "format_move",
    "format_square",
    "initial",
    "legal_moves",
    "outcome",
    "parse_move",
    "parse_square",
    "perft",
    "replay",
]
