"""Value types of the engine: sides, moves, outcomes and errors."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.cavalli.core.board import Square, name_of


class Side(StrEnum):
    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Side:
        """The opponent.

        >>> Side.WHITE.other
        <Side.BLACK: 'black'>
        """
        return Side.BLACK if self is Side.WHITE else Side.WHITE

    @property
    def home_rank(self) -> int:
        """The rank the knight is placed on: 1 for white, 10 for black."""
        return 1 if self is Side.WHITE else 10


class Termination(StrEnum):
    #: The side to move has no legal move: the only way a game of Cavalli ends by its rules.
    NO_LEGAL_MOVE = "no_legal_move"


class InvalidMoveError(ValueError):
    """The move text is not valid notation."""


class IllegalMoveError(ValueError):
    """The move is well formed but not legal in the position."""


class InvalidPositionError(ValueError):
    """A compact string or dict does not describe a Cavalli position."""


@dataclass(frozen=True)
class Move:
    """One turn: the square the knight lands on (a placement or a jump; the position
    says which) and, when it lands on a double, the other double it makes unusable.

    ``choice`` is ``None`` unless the landing square holds a double and at least one
    other usable, unoccupied double is left to choose.

    >>> Move(22)
    Move(to=22, choice=None)
    >>> Move(44, choice=0).sort_key() < Move(44, choice=11).sort_key()
    True
    """

    to: Square
    choice: Square | None = None

    def sort_key(self) -> tuple[int, int]:
        """Square order: destination first, then the chosen double (none first)."""
        return (self.to, -1 if self.choice is None else self.choice)

    def __str__(self) -> str:
        """Canonical notation (the same text as :func:`.notation.format_move`)."""
        if self.choice is None:
            return name_of(self.to)
        return f"{name_of(self.to)} x{name_of(self.choice)}"


@dataclass(frozen=True)
class Outcome:
    """A finished game: how it ended and both scores.

    >>> Outcome(Termination.NO_LEGAL_MOVE, 120, 95).winner
    <Side.WHITE: 'white'>
    >>> Outcome(Termination.NO_LEGAL_MOVE, 80, 80).is_draw
    True
    """

    termination: Termination
    white_points: int
    black_points: int

    @property
    def winner(self) -> Side | None:
        """The side with more points, or ``None`` for a draw."""
        if self.white_points == self.black_points:
            return None
        return Side.WHITE if self.white_points > self.black_points else Side.BLACK

    @property
    def is_draw(self) -> bool:
        return self.white_points == self.black_points

    def points(self, side: Side) -> int:
        return self.white_points if side is Side.WHITE else self.black_points
