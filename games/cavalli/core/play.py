"""The functional API the platform uses: the start, the moves, a move played, the end,
and a whole history replayed. Thin wrappers over :class:`~.position.Position`."""

from __future__ import annotations

from collections.abc import Iterable

from games.cavalli.core.base import IllegalMoveError, InvalidMoveError, Move, Outcome
from games.cavalli.core.board import Board
from games.cavalli.core.notation import parse_move
from games.cavalli.core.position import Position


def initial(board: Board) -> Position:
    """The starting position on ``board``."""
    return Position.initial(board)


def replay(board: Board, history: Iterable[str]) -> Position:
    """The position after the moves of ``history`` (notation texts) from the start.

    Raises :class:`InvalidMoveError` or :class:`IllegalMoveError` whose message starts
    with the move's number, counted from 1.

    >>> replay(Board.from_seed(7), ["A1 xC1", "e10"]).to_dict()["black"]
    'E10'
    >>> replay(Board.from_seed(7), ["B1", "B2"])
    Traceback (most recent call last):
    ...
    games.cavalli.core.base.IllegalMoveError: move 2: B2 is not legal: black places its knight on rank 10
    """
    position = Position.initial(board)
    for number, text in enumerate(history, start=1):
        if not text.strip():
            raise InvalidMoveError(f"move {number} is empty")
        try:
            move = parse_move(text, position)
        except InvalidMoveError as exc:
            raise InvalidMoveError(f"move {number}: {exc}") from None
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number}: {exc}") from None
        position = position._apply(move)  # parse_move checked it
    return position


def legal_moves(position: Position) -> list[Move]:
    return position.legal_moves()


def apply(position: Position, move: Move) -> Position:
    """The position after a legal ``move``; :class:`IllegalMoveError` otherwise."""
    return position.apply(move)


def outcome(position: Position) -> Outcome | None:
    return position.outcome()
