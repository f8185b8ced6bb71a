"""A stand-in for the published Thud AIs in ``bench/bots.py``: a one-move heuristic picker.

The Thud AIs one can download pick a move by rules of thumb rather than by search (one of
them, a Python program, takes the capture that scores best, else for the trolls a step
towards the nearest dwarf and for the dwarfs a step that gathers them; another is plain
Monte-Carlo). This is our own picker in that manner, written on our engine, so level 5
can be measured against something other than itself. It is not any of those programs,
and a match against it says nothing certain about one against them.

For the side to move it scores every capture (or, with none, every move that closes in
for the trolls and every move for the dwarfs) by the material after it, less the most
the opponent could take at once in reply, plus for the dwarfs a little for each dwarf
next to the square it lands on; ties go to a seeded random choice.
"""

from __future__ import annotations

import random

from games.thud.bot.evaluate import DWARF, TROLL
from games.thud.bot.moves import child, search_moves
from games.thud.core.board import ADJACENT, iter_bits
from games.thud.core.movegen import RawMove, hurls, troll_captures

#: What one dwarf next to where a dwarf lands is worth (flocking), in the material's units.
GATHER = 5


def _worst_reply(dwarfs: int, trolls: int, dwarf_turn: bool) -> int:
    """The most material the side to move (``dwarf_turn``) can take with one move."""
    if dwarf_turn:
        return TROLL * max((m[2].bit_count() for m in hurls(dwarfs, trolls)), default=0)
    return DWARF * max((m[2].bit_count() for m in troll_captures(dwarfs, trolls)), default=0)


def _distance_to_dwarfs(square: int, dwarfs: int) -> int:
    """Chebyshev distance from ``square`` (a bit index) to the nearest dwarf."""
    row, col = divmod(square, 16)
    return min(
        (max(abs(r - row), abs(c - col)) for r, c in (divmod(d, 16) for d in iter_bits(dwarfs))),
        default=99,
    )


def _candidates(dwarfs: int, trolls: int, dwarf_turn: bool, policy: str) -> list[RawMove]:
    moves = search_moves(dwarfs, trolls, dwarf_turn, policy)
    captures = [m for m in moves if m[2]]
    if captures or dwarf_turn:
        return captures or moves
    now = {f: _distance_to_dwarfs(f, dwarfs) for f in iter_bits(trolls)}
    closing = [m for m in moves if _distance_to_dwarfs(m[1], dwarfs) < now[m[0]]]
    return closing or moves


def pick(dwarfs: int, trolls: int, dwarf_turn: bool, policy: str, rng: random.Random) -> RawMove:
    """The picker's move; ``ValueError`` if the side to move has none."""
    moves = _candidates(dwarfs, trolls, dwarf_turn, policy)
    if not moves:
        raise ValueError("no legal move")
    sign = 1 if dwarf_turn else -1
    best: list[RawMove] = []
    best_value = -(1 << 30)
    for move in moves:
        d, t = child(dwarfs, trolls, dwarf_turn, move)
        value = sign * (DWARF * d.bit_count() - TROLL * t.bit_count())
        value -= _worst_reply(d, t, not dwarf_turn)
        if dwarf_turn:
            value += GATHER * (d & ADJACENT[move[1]]).bit_count()
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)
