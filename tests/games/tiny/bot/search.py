"""Tiny's search: iterative deepening negamax with alpha-beta, every root move scored.

Scores are hundredths of a point from the side to move's view: a finished battle (or
one the move limit ends) scores ``±(WIN + margin)`` (0 for a draw), an open position at
the depth cap its points ahead. Time is the ``clock`` passed in, read between depths
only, so a search bounded by depth is deterministic; the first depth always finishes.
A search that reached no open position at its cap is exact and stops deepening.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.rules.interface import WIN
from tests.games.tiny.core.position import Move, Position

Clock = Callable[[], float]
#: The longest battle: three pawns a side, each stepping twice.
MAX_DEPTH = 12


@dataclass(frozen=True)
class SearchResult:
    move: Move
    scores: tuple[tuple[Move, int], ...]  # best first
    depth: int
    nodes: int


def final_score(position: Position) -> int:
    """The battle ended here, from the side to move's view."""
    side = position.to_move
    diff = 100 * (position.points(side) - position.points(side.other))
    if diff > 0:
        return WIN + diff
    if diff < 0:
        return -WIN + diff
    return 0


def evaluate(position: Position) -> int:
    side = position.to_move
    return 100 * (position.points(side) - position.points(side.other))


class _Search:
    def __init__(self) -> None:
        self.nodes = 0
        self.cut_short = False  # an open position was evaluated at the depth cap

    def negamax(
        self, position: Position, depth: int, alpha: int, beta: int, plies_left: int | None
    ) -> int:
        self.nodes += 1
        moves = position.legal_moves()
        if not moves or plies_left == 0:
            return final_score(position)
        if depth == 0:
            self.cut_short = True
            return evaluate(position)
        best = -2 * WIN
        for move in moves:
            left = None if plies_left is None else plies_left - 1
            value = -self.negamax(position.play(move), depth - 1, -beta, -alpha, left)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best


def search(
    position: Position,
    *,
    clock: Clock,
    budget_ms: float,
    max_depth: int = MAX_DEPTH,
    plies_left: int | None = None,
) -> SearchResult:
    """Every legal move of ``position`` scored by the deepest search the budget allows;
    ``ValueError`` if the side to move has none."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the battle is over: the side to move has no move")
    start = clock()
    state = _Search()
    scored: list[tuple[Move, int]] = []
    depth = 0
    for d in range(1, max(1, max_depth) + 1):
        if depth and (clock() - start) * 1000 >= budget_ms:
            break
        state.cut_short = False
        left = None if plies_left is None else plies_left - 1
        values = [
            (m, -state.negamax(position.play(m), d - 1, -2 * WIN, 2 * WIN, left)) for m in moves
        ]
        scored = sorted(values, key=lambda pair: -pair[1])  # stable: ties by move order
        depth = d
        if not state.cut_short:
            break
    return SearchResult(scored[0][0], tuple(scored), depth, state.nodes)
