"""The immutable game state: pieces on the board and the side to move.

A :class:`Position` never changes: :meth:`Position.apply` and :meth:`Position.play` return
a new one, so a battle replays from :meth:`Position.initial` and its stored move list.
The Thudstone is implied (always on H8). Move generation lives in
:mod:`games.thud.core.movegen`; this module turns its raw bit tuples into :class:`Move` values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.thud.core import movegen
from games.thud.core.base import (
    TROLL_POINTS,
    CapturePolicy,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Side,
    Termination,
)
from games.thud.core.board import SQUARE_AT, STONE, Square, bit_index, mask_of, on_board, squares_of
from games.thud.core.notation import format_diagram, format_move, parse_diagram
from games.thud.core.squares import format_square, parse_square

_INITIAL_DIAGRAM = """\
     dd.dd
    d.....d
   d.......d
  d.........d
 d...........d
d.............d
d.....TTT.....d
......TRT......
d.....TTT.....d
d.............d
 d...........d
  d.........d
   d.......d
    d.....d
     dd.dd
dwarf
"""

PolicyArg = CapturePolicy | str
_SINGLE: tuple[tuple[Square], ...] = tuple((sq,) for sq in SQUARE_AT)


def _policy(policy: PolicyArg) -> str:
    return CapturePolicy(policy).value


@dataclass(frozen=True)
class Position:
    """Dwarfs, trolls and the side to move.

    >>> pos = Position.initial()
    >>> pos.dwarf_count, pos.troll_count, pos.side_to_move
    (32, 8, <Side.DWARF: 'dwarf'>)
    >>> len(pos.legal_moves())
    656
    >>> pos.piece_at((0, 5)), pos.piece_at((6, 6)), pos.piece_at((7, 7))
    ('d', 'T', None)
    """

    dwarfs: frozenset[Square]
    trolls: frozenset[Square]
    side_to_move: Side = Side.DWARF
    _d: int = field(init=False, repr=False, compare=False)
    _t: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        dwarfs = frozenset(self.dwarfs)
        trolls = frozenset(self.trolls)
        for sq in dwarfs | trolls:
            if not (
                isinstance(sq, tuple)
                and len(sq) == 2
                and all(isinstance(x, int) for x in sq)
                and on_board(*sq)
                and sq != STONE
            ):
                raise InvalidPositionError(f"{sq!r} is not a square a piece can stand on")
        if dwarfs & trolls:
            raise InvalidPositionError("a square holds both a dwarf and a troll")
        d = mask_of(dwarfs)
        t = mask_of(trolls)
        object.__setattr__(self, "dwarfs", dwarfs)
        object.__setattr__(self, "trolls", trolls)
        object.__setattr__(self, "side_to_move", Side(self.side_to_move))
        object.__setattr__(self, "_d", d)
        object.__setattr__(self, "_t", t)

    @classmethod
    def _from_bits(cls, d: int, t: int, side: Side) -> Position:
        pos = object.__new__(cls)
        object.__setattr__(pos, "dwarfs", frozenset(squares_of(d)))
        object.__setattr__(pos, "trolls", frozenset(squares_of(t)))
        object.__setattr__(pos, "side_to_move", side)
        object.__setattr__(pos, "_d", d)
        object.__setattr__(pos, "_t", t)
        return pos

    # --- construction and text ----------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The opening: 8 trolls round the stone, 32 dwarfs on the rim, dwarfs to move."""
        return cls.from_diagram(_INITIAL_DIAGRAM)

    @classmethod
    def from_diagram(cls, text: str) -> Position:
        """Read the 15-line diagram plus side line (see :mod:`games.thud.core.notation`)."""
        dwarfs, trolls, side = parse_diagram(text)
        return cls(dwarfs, trolls, side)

    def to_diagram(self) -> str:
        return format_diagram(self.dwarfs, self.trolls, self.side_to_move)

    @classmethod
    def from_compact(cls, text: str) -> Position:
        """One-line form used by perft files: ``<side> <piece>,<piece>,...``.

        >>> Position.from_compact("troll dF1,TG7").to_compact()
        'troll dF1,TG7'
        """
        side_text, _, pieces = text.strip().partition(" ")
        try:
            side = Side(side_text)
        except ValueError:
            raise InvalidPositionError(f"unknown side {side_text!r}") from None
        dwarfs: set[Square] = set()
        trolls: set[Square] = set()
        for item in filter(None, (p.strip() for p in pieces.split(","))):
            if item[0] not in "dT":
                raise InvalidPositionError(f"unknown piece {item!r}")
            try:
                sq = parse_square(item[1:])
            except ValueError as exc:
                raise InvalidPositionError(str(exc)) from None
            (dwarfs if item[0] == "d" else trolls).add(sq)
        return cls(frozenset(dwarfs), frozenset(trolls), side)

    def to_compact(self) -> str:
        pieces = [f"d{format_square(sq)}" for sq in sorted(self.dwarfs)]
        pieces += [f"T{format_square(sq)}" for sq in sorted(self.trolls)]
        return f"{self.side_to_move.value} {','.join(pieces)}"

    def __str__(self) -> str:
        return self.to_diagram()

    def __repr__(self) -> str:
        return f"Position.from_compact({self.to_compact()!r})"

    # --- queries ------------------------------------------------------------------------

    def piece_at(self, square: Square) -> str | None:
        """``"d"``, ``"T"`` or ``None`` (empty, off the board, or the Thudstone)."""
        if square in self.dwarfs:
            return "d"
        if square in self.trolls:
            return "T"
        return None

    @property
    def dwarf_count(self) -> int:
        return self._d.bit_count()

    @property
    def troll_count(self) -> int:
        return self._t.bit_count()

    def score(self) -> tuple[int, int]:
        """``(dwarf points, troll points)``: 1 per dwarf, 4 per troll.

        >>> Position.initial().score()
        (32, 32)
        """
        return self._d.bit_count(), TROLL_POINTS * self._t.bit_count()

    # --- moves --------------------------------------------------------------------------

    def _raw_moves(self, policy: PolicyArg, sources: int | None = None) -> list[movegen.RawMove]:
        policy = _policy(policy)  # validated even when the dwarfs move
        if self.side_to_move is Side.DWARF:
            return movegen.dwarf_moves(self._d, self._t, sources)
        return movegen.troll_moves(self._d, self._t, policy, sources)

    def _to_moves(self, raws: list[movegen.RawMove]) -> list[Move]:
        """Raw generator tuples -> sorted :class:`Move` values (sorted by from, to and
        captures; bit order is (row, col) order, so the raw tuples sort the same way)."""
        items: list[tuple[int, int, tuple[Square, ...]]] = []
        for f, t, cap in raws:
            if not cap:
                caps: tuple[Square, ...] = ()
            elif not cap & (cap - 1):
                caps = _SINGLE[cap.bit_length() - 1]
            else:
                caps = squares_of(cap)
            items.append((f, t, caps))
        items.sort()
        side, at, make = self.side_to_move, SQUARE_AT, Move._trusted
        return [make(side, at[f], at[t], caps) for f, t, caps in items]

    def legal_moves(self, policy: PolicyArg = CapturePolicy.SUBSET) -> list[Move]:
        """Every legal move, each capture set its own move, sorted by (from, to, captures)."""
        return self._to_moves(self._raw_moves(policy))

    def _moves_from(self, square: Square, policy: PolicyArg) -> list[Move]:
        if square not in (self.dwarfs if self.side_to_move is Side.DWARF else self.trolls):
            return []
        return self._to_moves(self._raw_moves(policy, 1 << bit_index(square)))

    def is_legal(self, move: Move, policy: PolicyArg = CapturePolicy.SUBSET) -> bool:
        if move.side is not self.side_to_move:
            return False
        return move in self._moves_from(move.from_sq, policy)

    def targets_from(
        self, square: Square, policy: PolicyArg = CapturePolicy.SUBSET
    ) -> list[Square]:
        """Destination squares of the side to move's piece on ``square`` (for the board UI).

        >>> Position.initial().targets_from(parse_square("F1"))[:3]
        [(1, 5), (1, 6), (2, 5)]
        """
        return sorted({m.to_sq for m in self._moves_from(square, policy)})

    def has_legal_move(self, policy: PolicyArg = CapturePolicy.SUBSET) -> bool:
        policy = _policy(policy)
        if self.side_to_move is Side.DWARF:
            return movegen.count_dwarf_moves(self._d, self._t) > 0
        return movegen.count_troll_moves(self._d, self._t, policy) > 0

    def apply(self, move: Move) -> Position:
        """The position after ``move``, with no legality check."""
        d, t = self._d, self._t
        step = (1 << bit_index(move.from_sq)) | (1 << bit_index(move.to_sq))
        captured = mask_of(move.captures)
        if move.side is Side.DWARF:
            d, t = d ^ step, t & ~captured
        else:
            d, t = d & ~captured, t ^ step
        return Position._from_bits(d, t, move.side.other)

    def play(self, move: Move, policy: PolicyArg = CapturePolicy.SUBSET) -> Position:
        """:meth:`apply` after checking legality; raises :class:`IllegalMoveError`."""
        if not self.is_legal(move, policy):
            raise IllegalMoveError(f"{format_move(move)} is not legal here")
        return self.apply(move)

    def pass_turn(self) -> Position:
        """Same board, other side to move. Not a rule of Thud: only for a quickfire turn
        forfeited on time."""
        return Position._from_bits(self._d, self._t, self.side_to_move.other)

    def outcome(self, policy: PolicyArg = CapturePolicy.SUBSET) -> Outcome | None:
        """How the battle ended, or ``None`` while it goes on.

        A side without pieces ends the battle at once (thud-rules.md §8), even if it is not
        that side's turn; otherwise it ends when the side to move has no legal move.
        """
        dwarf_points, troll_points = self.score()
        if not self._d or not self._t:
            return Outcome(Termination.NO_PIECES, dwarf_points, troll_points)
        if not self.has_legal_move(policy):
            return Outcome(Termination.NO_LEGAL_MOVE, dwarf_points, troll_points)
        return None
