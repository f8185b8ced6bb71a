"""Thud (classic, 2002) rules engine: pure Python, no Django.

Board geometry in :mod:`.core.board`, value types in :mod:`.core.base`, move generation in
:mod:`.core.movegen`, the immutable :class:`Position` in :mod:`.core.position`, square names in
:mod:`.core.squares`, text forms in :mod:`.core.notation`, perft in :mod:`.core.perft` and the command line in :mod:`.cli`. The rules,
with every ambiguity decided, are in ``shared/reference/thud-rules.md``.
"""

from __future__ import annotations

from games.thud.core.base import (
    MAX_DWARFS,
    MAX_TROLLS,
    TROLL_POINTS,
    CapturePolicy,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Side,
    Termination,
)
from games.thud.core.board import FILES, SQUARES, STONE, Square
from games.thud.core.notation import format_move, parse_move
from games.thud.core.position import Position
from games.thud.core.squares import format_square, parse_square

__all__ = [
    "FILES",
    "MAX_DWARFS",
    "MAX_TROLLS",
    "SQUARES",
    "STONE",
    "TROLL_POINTS",
    "CapturePolicy",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Position",
    "Side",
    "Square",
    "Termination",
    "format_move",
    "format_square",
    "parse_move",
    "parse_square",
]
