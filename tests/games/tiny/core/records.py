"""A Tiny record's movetext read back (the tags and the writing are ``games.rules.records``).

>>> parse_movetext("1. a1-a2 C3-C2 2. -- A2xB3 *")
('A1-A2', 'C3-C2', None, 'A2xB3')
"""

from __future__ import annotations

import re

from games.rules.records import FORFEIT, RecordError, move_number
from tests.games.tiny.core.notation import InvalidMoveError, format_move, parse_move_text

_NUMBER_RE = re.compile(r"([1-9][0-9]*)\.")


def parse_movetext(text: str) -> tuple[str | None, ...]:
    """The moves (canonical notation, ``None`` a forfeited turn) of ``text``; move numbers
    are optional but must be right when given; ``*`` ends it. :class:`RecordError` with
    the move number for anything else."""
    moves: list[str | None] = []
    tokens = text.split()
    for i, token in enumerate(tokens):
        number = move_number(len(moves))
        if token == "*":
            if i != len(tokens) - 1:
                raise RecordError(f"move {number}: text after the end marker '*'", number)
            break
        if written := _NUMBER_RE.fullmatch(token):
            if len(moves) % 2 or int(written.group(1)) != number:
                raise RecordError(f"move {number}: numbered {written.group(1)}", number)
        elif token == FORFEIT:
            moves.append(None)
        else:
            try:
                moves.append(format_move(parse_move_text(token)))
            except InvalidMoveError as exc:
                raise RecordError(f"move {number}: {exc}", number) from None
    return tuple(moves)
