"""Command line: ``python -m games.thud moves|perft|bot|replay`` (a stable interface, DESIGN.md §2).

* ``moves [--policy P]`` reads a diagram on stdin and prints every legal move, one per
  line, in canonical notation.
* ``perft DEPTH [--policy P] [--stdin]`` prints the perft node count from the opening, or
  from a diagram on stdin.
* ``bot [--policy P] [--level 1-5] [--ms N] [--seed S] [--depth D] [--plies-left N]`` reads
  a diagram on stdin and prints one legal move for the side to move, chosen by the
  computer player (:mod:`games.thud.bot`) within ``--ms`` milliseconds (default 1000).
  ``--depth`` caps the search depth, which makes the move reproducible for a seed;
  ``--plies-left`` is how many plies remain before a move limit ends the battle.
  A side with no legal move is an error.
* ``replay FILE`` reads a game record (see :mod:`games.rules.records`), replays it through the
  engine under the record's ``CapturePolicy`` and prints the final diagram and a line
  ``dwarfs N trolls M``. An illegal or unreadable move is reported with its move number.

Errors (bad arguments, bad diagram) print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import NoReturn

from games.thud.bot import LEVELS, choose_move
from games.thud.core.base import CapturePolicy, InvalidPositionError
from games.thud.core.notation import format_move
from games.thud.core.perft import perft
from games.thud.core.position import Position

# The records modules are pure Python too (no Django): the CLI stays importable without it.
from games.thud.core.records import RecordError, parse_record, replay

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage block: tools parse stderr.
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"DEPTH must be a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"DEPTH must be >= 0, not {value}")
    return value


def _bounded(name: str, low: int, high: int | None = None) -> Callable[[str], int]:
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} must be a whole number, not {text!r}"
            ) from None
        if value < low or (high is not None and value > high):
            limit = f"from {low} to {high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"{name} must be {limit}, not {value}")
        return value

    return convert


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m games.thud", description="Thud rules engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    policies = [p.value for p in CapturePolicy]
    moves = sub.add_parser("moves", help="list the legal moves of a position read on stdin")
    moves.add_argument("--policy", choices=policies, default=CapturePolicy.SUBSET.value)
    count = sub.add_parser("perft", help="count move sequences of DEPTH plies")
    count.add_argument("depth", metavar="DEPTH", type=_depth)
    count.add_argument("--policy", choices=policies, default=CapturePolicy.SUBSET.value)
    count.add_argument("--stdin", action="store_true", help="start from a diagram on stdin")
    bot = sub.add_parser("bot", help="print the computer player's move for a position on stdin")
    bot.add_argument("--policy", choices=policies, default=CapturePolicy.SUBSET.value)
    bot.add_argument("--level", type=_bounded("LEVEL", min(LEVELS), max(LEVELS)), default=5)
    bot.add_argument("--ms", type=_bounded("MS", 1), default=1000, help="time budget")
    bot.add_argument("--seed", type=_bounded("SEED", 0), default=0)
    bot.add_argument("--depth", type=_bounded("DEPTH", 1), default=None)
    bot.add_argument("--plies-left", type=_bounded("PLIES", 1), default=None)
    again = sub.add_parser("replay", help="replay a game record and print the final position")
    again.add_argument("file", metavar="FILE", help="a record file, as /battles/<id>/record.txt")
    return parser


def _read_position(prog: str) -> Position:
    try:
        return Position.from_diagram(sys.stdin.read())
    except InvalidPositionError as exc:
        sys.stderr.write(f"{prog}: error: {exc}\n")
        raise SystemExit(USAGE_ERROR) from None


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(parser.prog, args.file)
    if args.command == "bot":
        return _bot(parser.prog, args)
    if args.command == "moves":
        position = _read_position(parser.prog)
        out = "".join(f"{format_move(m)}\n" for m in position.legal_moves(args.policy))
        sys.stdout.write(out)
        return 0
    position = _read_position(parser.prog) if args.stdin else Position.initial()
    print(perft(position, args.depth, args.policy))
    return 0


def _bot(prog: str, args: argparse.Namespace) -> int:
    position = _read_position(prog)
    if not position.dwarfs or not position.trolls:
        sys.stderr.write(f"{prog}: error: the battle is over: a side has no pieces\n")
        return USAGE_ERROR
    if not position.has_legal_move(args.policy):
        side = position.side_to_move.value
        sys.stderr.write(f"{prog}: error: the {side}s have no legal move\n")
        return USAGE_ERROR
    choice = choose_move(
        position,
        args.policy,
        level=args.level,
        seed=args.seed,
        clock=time.monotonic,
        budget_ms=args.ms,
        max_depth=args.depth,
        plies_left=args.plies_left,
    )
    sys.stdout.write(f"{format_move(choice.move)}\n")
    return 0


def _replay(prog: str, path: str) -> int:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        sys.stderr.write(f"{prog}: error: cannot read {path}: {exc}\n")
        return USAGE_ERROR
    try:
        record = parse_record(text)
        final = replay(record.moves, record.policy)[-1]
    except RecordError as exc:
        sys.stderr.write(f"{prog}: error: {path}: {exc}\n")
        return USAGE_ERROR
    sys.stdout.write(final.to_diagram())
    sys.stdout.write(f"dwarfs {final.dwarf_count} trolls {final.troll_count}\n")
    return 0
