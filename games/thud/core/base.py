"""Value types shared by the engine: sides, capture policies, moves, outcomes, errors."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.thud.core.board import Square
from games.thud.core.squares import format_square

#: The pieces at the start: the most that can survive a battle.
MAX_DWARFS = 32
MAX_TROLLS = 8
#: A surviving troll is worth four points, a dwarf one.
TROLL_POINTS = 4


class Side(StrEnum):
    DWARF = "dwarf"
    TROLL = "troll"

    @property
    def other(self) -> Side:
        """The opponent.

        >>> Side.DWARF.other
        <Side.TROLL: 'troll'>
        """
        return Side.TROLL if self is Side.DWARF else Side.DWARF

    @property
    def letter(self) -> str:
        """The piece letter used in notation and diagrams: ``d`` or ``T``."""
        return "d" if self is Side.DWARF else "T"


class CapturePolicy(StrEnum):
    """Which dwarfs a troll may capture after moving (see thud-rules.md §6-7)."""

    #: Step: any subset of the adjacent dwarfs, including none. Shove: any non-empty subset.
    SUBSET = "subset"
    #: Step: none, or all adjacent dwarfs. Shove: all adjacent dwarfs.
    ALL_OR_NONE = "all_or_none"
    #: Always all adjacent dwarfs (a step next to no dwarf captures nothing).
    ALL = "all"


class Termination(StrEnum):
    NO_LEGAL_MOVE = "no_legal_move"
    NO_PIECES = "no_pieces"
    AGREEMENT = "agreement"
    MOVE_LIMIT = "move_limit"
    REFEREE = "referee"


class InvalidMoveError(ValueError):
    """The move text is not valid notation."""


class IllegalMoveError(ValueError):
    """The move is well formed but not legal in the position."""


class InvalidPositionError(ValueError):
    """A diagram or piece set does not describe a Thud position."""


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    dwarf_points: int
    troll_points: int

    @property
    def winner(self) -> Side | None:
        """The side with more points, or ``None`` for a drawn battle."""
        if self.dwarf_points == self.troll_points:
            return None
        return Side.DWARF if self.dwarf_points > self.troll_points else Side.TROLL


@dataclass(frozen=True)
class Move:
    """One turn. ``captures`` is sorted in (row, col) order, i.e. by rank then file.

    A hurl lists the troll it lands on as its capture; a troll move lists the dwarfs it
    takes. The kind is derived from the geometry:

    >>> Move(Side.TROLL, (6, 6), (5, 5), ((4, 5), (4, 4))).captures
    ((4, 4), (4, 5))
    >>> Move(Side.TROLL, (6, 6), (4, 4), ((3, 3),)).kind
    'shove'
    """

    side: Side
    from_sq: Square
    to_sq: Square
    captures: tuple[Square, ...] = ()

    def __post_init__(self) -> None:
        caps = self.captures
        if not isinstance(caps, tuple) or any(a >= b for a, b in zip(caps, caps[1:], strict=False)):
            object.__setattr__(self, "captures", tuple(sorted(set(caps))))

    @classmethod
    def _trusted(
        cls, side: Side, from_sq: Square, to_sq: Square, captures: tuple[Square, ...]
    ) -> Move:
        """Build a move from parts already known to be valid and sorted, skipping
        ``__init__`` (the move generator makes hundreds per position)."""
        move = object.__new__(cls)
        move.__dict__.update(side=side, from_sq=from_sq, to_sq=to_sq, captures=captures)
        return move

    @property
    def kind(self) -> str:
        """``"move"`` or ``"hurl"`` for a dwarf, ``"step"`` or ``"shove"`` for a troll."""
        if self.side is Side.DWARF:
            return "hurl" if self.captures else "move"
        distance = max(abs(self.to_sq[0] - self.from_sq[0]), abs(self.to_sq[1] - self.from_sq[1]))
        return "shove" if distance >= 2 else "step"

    def __str__(self) -> str:
        """Canonical notation (the text :func:`.notation.format_move` gives)."""
        text = f"{self.side.letter} {format_square(self.from_sq)}-{format_square(self.to_sq)}"
        for sq in self.captures:
            text += f" x{format_square(sq)}"
        return text
