"""The moves the search tries, a child position, and what a search returns.

Under ``subset`` the search considers, for each troll step or shove, only capturing every
adjacent dwarf or none (what ``all_or_none`` allows, each also legal under ``subset``):
sparing a dwarf the troll could take never gains material, and it keeps the tree small.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.rules.interface import WIN
from games.thud.core.movegen import ALL, RawMove, dwarf_moves, troll_captures, troll_steps

Clock = Callable[[], float]


def search_moves(dwarfs: int, trolls: int, dwarf_turn: bool, policy: str) -> list[RawMove]:
    """Every move the search considers, unordered (see the module note)."""
    if dwarf_turn:
        return dwarf_moves(dwarfs, trolls)
    return troll_captures(dwarfs, trolls) + troll_steps(dwarfs, trolls, spare=policy != ALL)


def generate(dwarfs: int, trolls: int, dwarf_turn: bool, policy: str) -> list[RawMove]:
    """The moves the search tries, biggest captures first."""
    moves = search_moves(dwarfs, trolls, dwarf_turn, policy)
    moves.sort(key=capture_size, reverse=True)
    return moves


def capture_size(move: RawMove) -> int:
    return move[2].bit_count()


def child(dwarfs: int, trolls: int, dwarf_turn: bool, move: RawMove) -> tuple[int, int]:
    f, t, cap = move
    if dwarf_turn:
        return dwarfs ^ (1 << f) ^ (1 << t), trolls & ~cap
    return dwarfs & ~cap, trolls ^ (1 << f) ^ (1 << t)


@dataclass(frozen=True)
class SearchResult:
    """The best root move found and what the search did to find it.

    ``scores`` holds each root move's score at ``depth`` (exact, from the side to move's
    side) when ``all_scores`` was asked for, else only the best one.
    """

    move: RawMove
    score: int
    depth: int
    nodes: int
    stopped: bool
    started: float
    finished: float
    scores: tuple[tuple[RawMove, int], ...]


def exact_score(value: int) -> int:
    """A search score without the quicker-win bonus: a finished battle's score is then
    exactly ``±WIN`` plus its margin in hundredths (the bonus is below half a point).

    >>> exact_score(WIN + 100 - 3), exact_score(-WIN - 400 + 12), exact_score(-37)
    (100100, -100400, -37)
    """
    if value >= WIN // 2:
        return WIN + round((value - WIN) / 100) * 100
    if value <= -WIN // 2:
        return -WIN + round((value + WIN) / 100) * 100
    return value
