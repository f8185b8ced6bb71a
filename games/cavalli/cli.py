"""Command line: ``python -m games.cavalli board|moves|perft|bot`` (stable, see DESIGN.md §8).

* ``board --seed N`` prints the board of seed ``N``: 10 lines, rank 10 first, each 10
  two-digit numbers separated by one space.
* ``moves --board FILE [--history "M1,M2,..."]`` prints the legal moves of the position
  the history reaches from the start on that board, one per line, in canonical notation,
  sorted as plain text (the order of ``sort`` in the C locale and of Python's ``sorted``).
* ``perft DEPTH --board FILE [--history ...]`` prints the number of move sequences of
  ``DEPTH`` moves from that position.
* ``bot --board FILE [--history ...] [--level 1-5] [--ms N] [--seed S] [--depth D]
  [--plies-left N]`` prints one legal move for the side to move of that position, in
  canonical notation and nothing else, chosen by the computer player (:mod:`.bot`) within
  ``--ms`` milliseconds (default 1000) plus start-up. ``--depth`` caps the search, which
  makes the move reproducible for a seed; ``--plies-left`` is how many plies remain before
  a move limit ends the game. A side with no legal move (the game is over) is an error.

``FILE`` is a board in the ``board`` command's format (``-`` reads it from stdin). The
history is comma-separated moves in the notation of :mod:`.core.notation`; an empty string
means the start. Any bad input -- arguments, an unreadable or malformed board, a
malformed or illegal move -- prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import NoReturn

from games.cavalli.bot import LEVELS, choose_move
from games.cavalli.core.base import IllegalMoveError, InvalidMoveError
from games.cavalli.core.board import Board, InvalidBoardError
from games.cavalli.core.notation import format_move
from games.cavalli.core.perft import perft
from games.cavalli.core.play import replay
from games.cavalli.core.position import Position

USAGE_ERROR = 2
PROG = "python -m games.cavalli"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage block: tools parse stderr.
        self.exit(USAGE_ERROR, f"{PROG}: error: {message}\n")


def _natural(what: str) -> Callable[[str], int]:
    def convert(text: str) -> int:
        text = text.strip()
        if not text.isascii() or not text.isdigit():
            raise argparse.ArgumentTypeError(
                f"{what} must be a non-negative whole number, not {text!r}"
            )
        return int(text)

    return convert


def _bounded(what: str, low: int, high: int | None = None) -> Callable[[str], int]:
    natural = _natural(what)

    def convert(text: str) -> int:
        value = natural(text)
        if value < low or (high is not None and value > high):
            limit = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{what} must be {limit}, not {value}")
        return value

    return convert


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Battaglia di Cavalli rules engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    board = sub.add_parser("board", help="print the board of a seed")
    board.add_argument("--seed", required=True, type=_natural("the seed"), metavar="N")
    for name, text in (
        ("moves", "list the legal moves after a history"),
        ("perft", "count move sequences of DEPTH moves after a history"),
        ("bot", "print the computer player's move after a history"),
    ):
        command = sub.add_parser(name, help=text)
        if name == "perft":
            command.add_argument("depth", metavar="DEPTH", type=_natural("DEPTH"))
        command.add_argument("--board", required=True, metavar="FILE", help="'-' for stdin")
        command.add_argument("--history", default="", help='comma-separated moves, "C1,D10"')
    bot = sub.choices["bot"]
    levels = (min(LEVELS), max(LEVELS))
    bot.add_argument("--level", type=_bounded("LEVEL", *levels), default=max(LEVELS))
    bot.add_argument("--ms", type=_bounded("MS", 1), default=1000, help="time budget")
    bot.add_argument("--seed", type=_natural("SEED"), default=0)
    bot.add_argument("--depth", type=_bounded("DEPTH", 1), default=None)
    bot.add_argument("--plies-left", type=_bounded("PLIES", 1), default=None)
    return parser


class _Fail(Exception):
    """One line for stderr."""


def _read_board(path: str) -> Board:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise _Fail(f"cannot read board file {path!r}: {reason}") from None
    try:
        return Board.parse(text)
    except InvalidBoardError as exc:
        raise _Fail(f"bad board in {path!r}: {exc}") from None


def _replay(board: Board, history: str) -> Position:
    moves = history.split(",") if history.strip() else []
    try:
        return replay(board, moves)
    except (InvalidMoveError, IllegalMoveError) as exc:
        raise _Fail(f"history {exc}") from None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "board":
            sys.stdout.write(Board.from_seed(args.seed).format())
            return 0
        position = _replay(_read_board(args.board), args.history)
    except _Fail as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return USAGE_ERROR
    if args.command == "bot":
        if not position.has_legal_move():
            side = position.to_move.value
            sys.stderr.write(f"{PROG}: error: {side} has no legal move: the game is over\n")
            return USAGE_ERROR
        choice = choose_move(
            position,
            level=args.level,
            seed=args.seed,
            clock=time.monotonic,
            budget_ms=args.ms,
            max_depth=args.depth,
            plies_left=args.plies_left,
        )
        sys.stdout.write(f"{format_move(choice.move)}\n")
    elif args.command == "moves":
        sys.stdout.write(
            "".join(f"{text}\n" for text in sorted(map(format_move, position.legal_moves())))
        )
    else:
        print(perft(position, args.depth))
    return 0
