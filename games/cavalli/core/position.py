"""The immutable game state and the rules of Battaglia di Cavalli.

Terminology and invariants:

* A knight is *placed* (its side's first move, onto its home rank: 1 for white, 10 for
  black) and afterwards *jumps* like a chess knight. Both are *landings*.
* A square is *usable* until it is made unusable; it never becomes usable again. It is
  *occupied* while a knight stands on it, and *attacked* by a knight when that knight
  could jump to it. A knight's own square is always usable.
* A placement goes to any usable, unoccupied square of the home rank; a jump to any
  usable, unoccupied square not attacked by the enemy knight. (The attack rule is written
  for jumps; a placement on rank 1 or 10 cannot be attacked in a normal game anyway.)
* Landing, in this order: the square the knight leaves becomes unusable; the mover
  scores the number landed on; if that number has two different digits (57), the square
  of its reverse (75) becomes unusable unless it holds the enemy knight; if it is a
  double (66), the mover must choose one other double that is usable and unoccupied (it
  may be attacked) and it becomes unusable -- or, with none left, there is no choice.
* The game ends when the side to move has no legal move; more points wins, equal is a
  draw. ``ply`` counts the turns taken, so white is to move on even plies (unless a
  turn was passed with :meth:`Position.pass_turn`).

Move generation works on plain ints (:mod:`.movegen`) so that :mod:`.perft` can use it
without building positions. The functional API (``initial``, ``apply``, ``replay``, ...)
is in :mod:`.play`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.cavalli.core.base import (
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Side,
    Termination,
)
from games.cavalli.core.board import (
    HOME_RANK_SQUARES,
    KNIGHT_JUMPS,
    Board,
    InvalidBoardError,
    Square,
    is_double,
    is_square,
    mask_of,
    squares_of,
)
from games.cavalli.core.movegen import NONE, land, raw_moves
from games.cavalli.core.notation import format_move, format_square, parse_square


@dataclass(frozen=True)
class Position:
    """Board, unusable squares, both knights, side to move, scores and ply.

    >>> pos = Position.initial(Board.from_seed(1))
    >>> pos.to_move, pos.white, pos.black, pos.scores
    (<Side.WHITE: 'white'>, None, None, (0, 0))
    >>> len(pos.legal_moves())
    10
    """

    board: Board
    unusable: frozenset[Square] = frozenset()
    white: Square | None = None
    black: Square | None = None
    to_move: Side = Side.WHITE
    white_score: int = 0
    black_score: int = 0
    ply: int = 0
    _mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise InvalidPositionError("board must be a Board")
        try:
            unusable = frozenset(self.unusable)
        except TypeError:
            raise InvalidPositionError("unusable must be a set of squares") from None
        if not all(is_square(sq) for sq in unusable):
            raise InvalidPositionError("unusable holds something that is not a square")
        for name, knight in (("white", self.white), ("black", self.black)):
            if knight is None:
                continue
            if not is_square(knight):
                raise InvalidPositionError(f"the {name} knight is not on a square: {knight!r}")
            if knight in unusable:
                raise InvalidPositionError(
                    f"the {name} knight stands on an unusable square ({format_square(knight)})"
                )
        if self.white is not None and self.white == self.black:
            raise InvalidPositionError("both knights stand on one square")
        try:
            to_move = Side(self.to_move)
        except ValueError:
            raise InvalidPositionError(f"unknown side to move: {self.to_move!r}") from None
        for name in ("white_score", "black_score", "ply"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise InvalidPositionError(f"{name} must be a non-negative integer")
        object.__setattr__(self, "unusable", unusable)
        object.__setattr__(self, "to_move", to_move)
        object.__setattr__(self, "_mask", mask_of(unusable))

    @classmethod
    def _make(
        cls,
        board: Board,
        mask: int,
        white: int,
        black: int,
        to_move: Side,
        white_score: int,
        black_score: int,
        ply: int,
    ) -> Position:
        """Build from trusted raw parts, skipping validation."""
        pos = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(pos, "board", board)
        setattr_(pos, "unusable", squares_of(mask))
        setattr_(pos, "white", None if white < 0 else white)
        setattr_(pos, "black", None if black < 0 else black)
        setattr_(pos, "to_move", to_move)
        setattr_(pos, "white_score", white_score)
        setattr_(pos, "black_score", black_score)
        setattr_(pos, "ply", ply)
        setattr_(pos, "_mask", mask)
        return pos

    @classmethod
    def initial(cls, board: Board) -> Position:
        """The start: every square usable, no knight placed, white to move."""
        return cls(board)

    # --- queries ------------------------------------------------------------------------

    def knight(self, side: Side) -> Square | None:
        """The square of ``side``'s knight, ``None`` before its placement."""
        return self.white if side is Side.WHITE else self.black

    def score(self, side: Side) -> int:
        return self.white_score if side is Side.WHITE else self.black_score

    @property
    def scores(self) -> tuple[int, int]:
        """``(white points, black points)``."""
        return self.white_score, self.black_score

    def number_at(self, sq: Square) -> int:
        return self.board.numbers[sq]

    def is_usable(self, sq: Square) -> bool:
        return not self._mask >> sq & 1

    def knight_at(self, sq: Square) -> Side | None:
        if sq == self.white:
            return Side.WHITE
        if sq == self.black:
            return Side.BLACK
        return None

    def attacked_by(self, side: Side) -> frozenset[Square]:
        """The squares ``side``'s knight attacks (none before its placement)."""
        knight = self.knight(side)
        return frozenset() if knight is None else frozenset(KNIGHT_JUMPS[knight])

    def _raw(self) -> tuple[int, int]:
        white = NONE if self.white is None else self.white
        black = NONE if self.black is None else self.black
        return (white, black) if self.to_move is Side.WHITE else (black, white)

    # --- moves --------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, each double choice its own move, in square order
        (:meth:`Move.sort_key`). Empty when the game is over."""
        mover, enemy = self._raw()
        raws = raw_moves(self.board, self._mask, mover, enemy, self.to_move)
        return [Move(to, None if c < 0 else c) for to, c in raws]

    def has_legal_move(self) -> bool:
        mover, enemy = self._raw()
        return bool(raw_moves(self.board, self._mask, mover, enemy, self.to_move))

    def targets(self) -> list[Square]:
        """The squares the side to move can land on (for a board UI)."""
        return sorted({m.to for m in self.legal_moves()})

    def choices(self, to: Square) -> list[Square]:
        """The doubles to choose from when landing on ``to`` (empty: no choice to make)."""
        return [m.choice for m in self.legal_moves() if m.to == to and m.choice is not None]

    def why_illegal(self, move: Move) -> str | None:
        """``None`` for a legal move, else a short English reason.

        >>> pos = Position.initial(Board.from_seed(1))
        >>> pos.why_illegal(Move(3)) is None, pos.why_illegal(Move(30))
        (True, 'white places its knight on rank 1')
        """
        if not isinstance(move, Move) or not is_square(move.to):
            return "not a move"
        if move.choice is not None and not is_square(move.choice):
            return "the chosen double is not a square"
        side, to = self.to_move, move.to
        mover, enemy = self._raw()
        name = format_square(to)
        if mover < 0:
            if to not in HOME_RANK_SQUARES[side is Side.BLACK]:
                return f"{side} places its knight on rank {side.home_rank}"
        elif to not in KNIGHT_JUMPS[mover]:
            return f"{name} is not a knight's jump from {format_square(mover)}"
        if not self.is_usable(to):
            return f"{name} is unusable"
        if to == enemy:
            return f"{name} holds the {side.other} knight"
        if mover >= 0 and enemy >= 0 and to in KNIGHT_JUMPS[enemy]:
            return f"{name} is attacked by the {side.other} knight"
        number = self.number_at(to)
        choices = self.choices(to)
        if move.choice is None:
            if choices:
                example = format_move(Move(to, choices[0]))
                return (
                    f"{name} holds the double {number:02d}: choose another double to make "
                    f"unusable, e.g. {example}"
                )
            return None
        if not is_double(number):
            return f"{name} holds {number:02d}, not a double: there is no double to choose"
        if not choices:
            return "no other usable, unoccupied double is left to choose"
        if move.choice not in choices:
            return f"{format_square(move.choice)} is not a usable, unoccupied double"
        return None

    def apply(self, move: Move) -> Position:
        """The position after ``move``; raises :class:`IllegalMoveError` if it is not legal."""
        reason = self.why_illegal(move)
        if reason is not None:
            text = format_move(move) if isinstance(move, Move) else repr(move)
            raise IllegalMoveError(f"{text} is not legal: {reason}")
        return self._apply(move)

    def _apply(self, move: Move) -> Position:
        """:meth:`apply` without the legality check (for moves from :meth:`legal_moves`)."""
        mover, enemy = self._raw()
        choice = NONE if move.choice is None else move.choice
        mask = land(self.board, self._mask, mover, enemy, move.to, choice)
        gain = self.board.numbers[move.to]
        if self.to_move is Side.WHITE:
            return Position._make(
                self.board, mask, move.to, enemy, Side.BLACK,
                self.white_score + gain, self.black_score, self.ply + 1,
            )  # fmt: skip
        return Position._make(
            self.board, mask, enemy, move.to, Side.WHITE,
            self.white_score, self.black_score + gain, self.ply + 1,
        )  # fmt: skip

    def pass_turn(self) -> Position:
        """Same board, the other side to move, ply + 1. Not a rule of the game: for a turn
        forfeited on a clock. A side whose knight is not placed yet places it later."""
        white, black = (NONE if k is None else k for k in (self.white, self.black))
        return Position._make(
            self.board, self._mask, white, black, self.to_move.other,
            self.white_score, self.black_score, self.ply + 1,
        )  # fmt: skip

    def outcome(self) -> Outcome | None:
        """``None`` while the side to move has a legal move, else the final scores."""
        if self.has_legal_move():
            return None
        return Outcome(Termination.NO_LEGAL_MOVE, self.white_score, self.black_score)

    # --- serialisation ------------------------------------------------------------------

    def to_compact(self) -> str:
        """One line, ``/``-separated: board (200 digits, A1 first), unusable squares (a
        25-digit hex mask, bit = square), white knight, black knight (``-`` if not
        placed), side to move (``w``/``b``), white score, black score, ply.

        >>> pos = Position.initial(Board.from_seed(1))
        >>> Position.from_compact(pos.to_compact()) == pos
        True
        >>> pos.to_compact()[200:]
        '/0000000000000000000000000/-/-/w/0/0/0'
        """
        white = "-" if self.white is None else format_square(self.white)
        black = "-" if self.black is None else format_square(self.black)
        return "/".join(
            [
                self.board.to_compact(),
                f"{self._mask:025x}",
                white,
                black,
                self.to_move.value[0],
                str(self.white_score),
                str(self.black_score),
                str(self.ply),
            ]
        )

    @classmethod
    def from_compact(cls, text: str) -> Position:
        parts = text.strip().split("/") if isinstance(text, str) else []
        if len(parts) != 8:
            raise InvalidPositionError("a compact position has 8 '/'-separated fields")
        board_text, mask_text, white, black, side, ws, bs, ply = parts
        try:
            board = Board.from_compact(board_text)
        except InvalidBoardError as exc:
            raise InvalidPositionError(str(exc)) from None
        if len(mask_text) != 25 or any(c not in "0123456789abcdef" for c in mask_text):
            raise InvalidPositionError("the unusable mask is 25 lower-case hex digits")
        mask = int(mask_text, 16)  # 25 hex digits: exactly the 100 squares
        sides = {"w": Side.WHITE, "b": Side.BLACK}
        if side not in sides:
            raise InvalidPositionError(f"side to move must be 'w' or 'b', not {side!r}")
        numbers = []
        for value in (ws, bs, ply):
            if not value.isascii() or not value.isdigit():
                raise InvalidPositionError(f"{value!r} is not a non-negative integer")
            numbers.append(int(value))
        return cls(
            board,
            squares_of(mask),
            _knight_from_text(white),
            _knight_from_text(black),
            sides[side],
            *numbers,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``board`` is the 100 numbers in square order (A1, B1, ..., J10);
        squares are names like ``"C3"``.

        >>> pos = Position.initial(Board.from_seed(1)).apply(Move(2))
        >>> d = pos.to_dict()
        >>> d["white"], d["black"], d["to_move"], d["ply"], Position.from_dict(d) == pos
        ('C1', None, 'black', 1, True)
        """
        return {
            "board": list(self.board.numbers),
            "unusable": [format_square(sq) for sq in sorted(self.unusable)],
            "white": None if self.white is None else format_square(self.white),
            "black": None if self.black is None else format_square(self.black),
            "to_move": self.to_move.value,
            "scores": {"white": self.white_score, "black": self.black_score},
            "ply": self.ply,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Position:
        try:
            board = Board(tuple(data["board"]))
            unusable = frozenset(parse_square(name) for name in data["unusable"])
            white = None if data["white"] is None else parse_square(data["white"])
            black = None if data["black"] is None else parse_square(data["black"])
            scores = data["scores"]
            return cls(
                board,
                unusable,
                white,
                black,
                Side(data["to_move"]),
                scores["white"],
                scores["black"],
                data["ply"],
            )
        except InvalidPositionError:
            raise
        except KeyError as exc:
            raise InvalidPositionError(f"not a Cavalli position: no {exc} key") from None
        except (TypeError, ValueError) as exc:
            raise InvalidPositionError(f"not a Cavalli position: {exc}") from None

    def __repr__(self) -> str:
        return f"Position.from_compact({self.to_compact()!r})"


def _knight_from_text(text: str) -> Square | None:
    if text == "-":
        return None
    try:
        return parse_square(text)
    except ValueError as exc:
        raise InvalidPositionError(str(exc)) from None
