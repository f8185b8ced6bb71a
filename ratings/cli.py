"""Command line: ``python -m ratings glicko2`` (a stable interface for outside checks).

``glicko2`` reads one player's rating period as JSON on stdin::

    {"rating": 1500, "rd": 200, "volatility": 0.06, "tau": 0.5,
     "games": [{"rating": 1400, "rd": 30, "score": 1}, ...]}

and prints the player's new values as JSON, floats unrounded:
``{"rating": ..., "rd": ..., "volatility": ...}``. An empty ``games`` is a period without
play. Every field is required; other keys are ignored.

Bad input (not JSON, a missing field, a wrong type, a negative RD, a score other than 0,
0.5 or 1, ``tau`` <= 0, numbers out of range) prints one line on stderr, nothing on stdout,
and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from .glicko2 import Game, Rating, RatingError, rate

USAGE_ERROR = 2
PROG = "python -m ratings"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage block: tools parse stderr.
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Glicko-2 ratings")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("glicko2", help="rate one player's period read as JSON on stdin")
    return parser


def _field(obj: dict[str, Any], name: str, where: str) -> Any:
    if name not in obj:
        raise RatingError(f"{where}missing field {name!r}")
    return obj[name]


def _number(obj: dict[str, Any], name: str, where: str = "") -> float:
    value = _field(obj, name, where)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RatingError(f"{where}{name!r} must be a number, not {json.dumps(value)}")
    try:
        return float(value)
    except OverflowError:  # an integer too long for a float
        raise RatingError(f"{where}{name!r} is out of range") from None


def _game(item: Any, index: int) -> Game:
    where = f"games[{index}]: "
    if not isinstance(item, dict):
        raise RatingError(f"{where}must be an object, not {json.dumps(item)}")
    try:
        return Game(
            _number(item, "rating", where),
            _number(item, "rd", where),
            _number(item, "score", where),
        )
    except RatingError as exc:
        message = str(exc)
        raise RatingError(message if message.startswith(where) else where + message) from None


def rate_json(text: bytes) -> dict[str, float]:
    """The new values for the period ``text`` describes; :class:`RatingError` if it is bad."""
    try:
        data = json.loads(text)
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        raise RatingError(f"stdin is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RatingError("stdin must hold a JSON object")
    player = Rating(_number(data, "rating"), _number(data, "rd"), _number(data, "volatility"))
    tau = _number(data, "tau")
    games = _field(data, "games", "")
    if not isinstance(games, list):
        raise RatingError(f"'games' must be a list, not {json.dumps(games)}")
    after = rate(player, [_game(item, i) for i, item in enumerate(games)], tau=tau)
    return {"rating": after.rating, "rd": after.rd, "volatility": after.volatility}


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    parser.parse_args(argv)
    try:
        values = rate_json(sys.stdin.buffer.read())
    except RatingError as exc:
        message = " ".join(str(exc).split())  # one line, whatever the input held
        sys.stderr.write(f"{parser.prog} glicko2: error: {message}\n")
        return USAGE_ERROR
    sys.stdout.write(json.dumps(values) + "\n")
    return 0
