"""Iterative-deepening alpha-beta (negamax) with a transposition table, on raw masks.

A node is the unusable mask, the mover's and the enemy's knight squares (``-1`` before a
placement), whether white moves, and ``diff``: the mover's points minus the enemy's. Moves
come from :func:`~games.cavalli.core.movegen.raw_moves` and :func:`~games.cavalli.core.movegen.land`,
the generator :class:`~games.cavalli.Position` uses, so the rules (the attack rule, the
reverse struck out, the double chosen) are exactly the engine's. A side with no legal move
ends the game (:func:`.evaluate.final_score` of the points), and so does the move limit
(``plies_left``) when one is set. The table's key is the node itself (a tuple of ints).

Time is an argument: ``clock`` (seconds) and ``budget_ms``; tests drive it with a fake
clock. A depth or node limit makes a search exactly reproducible; under a time budget
alone the depth reached, and so the move, may vary with the machine's speed. When an
iteration uses no static evaluation the game tree is solved and deepening stops.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.cavalli.bot.evaluate import WIN, evaluate, final_score, value_tables
from games.cavalli.core.base import Side
from games.cavalli.core.board import Board
from games.cavalli.core.movegen import RawMove, land, raw_moves

Clock = Callable[[], float]

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Read the clock once every this many nodes.
CLOCK_EVERY = 32
MAX_DEPTH = 100
_INF = 10 * WIN
_SIDES = (Side.BLACK, Side.WHITE)  # indexed by "white moves"

Node = tuple[int, int, int, bool, int]  # mask, mover, enemy, white moves, diff


class _OutOfTime(Exception):
    """Unwinds the search when the deadline or node limit passes."""


@dataclass(frozen=True)
class SearchResult:
    """The best root move found and what the search did to find it.

    ``scores``: each root move's score at ``depth`` (from the side to move's view, points
    already scored included), best first; exact for every move when ``all_scores`` was
    asked for, else exact only for the first (the others are upper bounds).
    """

    move: RawMove
    score: int
    depth: int
    nodes: int
    stopped: bool
    solved: bool
    scores: tuple[tuple[RawMove, int], ...]


def ordered(board: Board, mask: int, mover: int, enemy: int, white: bool) -> list[RawMove]:
    """The legal moves, the biggest number first; on a double, the dearest double struck
    out first (stable, so the order is reproducible)."""
    numbers = board.numbers
    moves = raw_moves(board, mask, mover, enemy, _SIDES[white])
    moves.sort(key=lambda m: (-numbers[m[0]], -numbers[m[1]] if m[1] >= 0 else 0))
    return moves


class Searcher:
    def __init__(
        self,
        board: Board,
        *,
        clock: Clock,
        budget_ms: float,
        node_limit: int | None = None,
        plies_left: int | None = None,
    ) -> None:
        self.board = board
        self.tables = value_tables(board)
        self.clock = clock
        self.deadline = clock() + budget_ms / 1000
        self.node_limit = node_limit
        self.plies_left = plies_left
        self.nodes = 0
        self.statics = 0
        self.table: dict[tuple[int, ...], tuple[int, int, int, RawMove | None]] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfTime
        if self.nodes % CLOCK_EVERY == 0 and self.clock() >= self.deadline:
            raise _OutOfTime

    def child(self, node: Node, move: RawMove) -> Node:
        mask, mover, enemy, white, diff = node
        to, choice = move
        after = land(self.board, mask, mover, enemy, to, choice)
        return after, enemy, to, not white, -(diff + self.board.numbers[to])

    def negamax(self, node: Node, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        mask, mover, enemy, white, diff = node
        if self.plies_left is not None:
            if ply >= self.plies_left:
                return final_score(diff)
            key: tuple[int, ...] = (*node, ply)
        else:
            key = node
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            e_depth, e_value, e_flag, hint = entry
            if e_depth >= depth and (
                e_flag == _EXACT
                or (e_flag == _LOWER and e_value >= beta)
                or (e_flag == _UPPER and e_value <= alpha)
            ):
                if e_depth < MAX_DEPTH:
                    self.statics += 1  # the value rests on a static evaluation
                return e_value
        moves = ordered(self.board, mask, mover, enemy, white)
        if not moves:
            value = final_score(diff)
            self.table[key] = (MAX_DEPTH, value, _EXACT, None)
            return value
        if depth <= 0:
            self.statics += 1
            return 100 * diff + evaluate(self.board, self.tables, mask, mover, enemy, white)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        start_alpha, statics = alpha, self.statics
        best, best_move = -_INF, moves[0]
        for move in moves:
            value = -self.negamax(self.child(node, move), depth - 1, -beta, -alpha, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = _LOWER if best >= beta else _UPPER if best <= start_alpha else _EXACT
        # A subtree searched to the end of every line holds at any depth.
        solved = self.statics == statics
        self.table[key] = (MAX_DEPTH if solved else depth, best, flag, best_move)
        return best

    def root(
        self, node: Node, moves: list[RawMove], depth: int, exact: bool
    ) -> list[tuple[RawMove, int]]:
        """Each root move with its score; with ``exact`` every score is exact (slower),
        else only the best one is (the others are upper bounds)."""
        alpha = -_INF
        scored = []
        for move in moves:
            lower = -_INF if exact else alpha
            value = -self.negamax(self.child(node, move), depth - 1, -_INF, -lower, 1)
            scored.append((move, value))
            alpha = max(alpha, value)
        return scored

    def run(self, node: Node, max_depth: int, all_scores: bool = False) -> SearchResult:
        mask, mover, enemy, white, _ = node
        moves = ordered(self.board, mask, mover, enemy, white)
        if not moves:
            raise ValueError("the side to move has no legal move")
        if self.plies_left is not None and self.plies_left < 1:
            raise ValueError("plies_left must be at least 1")
        best: list[tuple[RawMove, int]] = [(moves[0], 0)]
        depth_done, stopped, solved = 0, False, False
        for depth in range(1, max_depth + 1):
            statics = self.statics
            try:
                scored = self.root(node, moves, depth, all_scores)
            except _OutOfTime:
                stopped = True
                break
            # Stable sort: ties keep the previous order, so the result is reproducible.
            scored.sort(key=lambda item: -item[1])
            best, depth_done = scored, depth
            moves = [m for m, _ in scored]
            if self.statics == statics:
                solved = True  # every line reached the end of the game
                break
        return SearchResult(
            move=best[0][0],
            score=best[0][1],
            depth=depth_done,
            nodes=self.nodes,
            stopped=stopped,
            solved=solved,
            scores=tuple(best) if all_scores else tuple(best[:1]),
        )


def search(
    board: Board,
    node: Node,
    *,
    clock: Clock,
    budget_ms: float,
    max_depth: int = MAX_DEPTH,
    node_limit: int | None = None,
    plies_left: int | None = None,
    all_scores: bool = False,
) -> SearchResult:
    """Search ``node`` until ``max_depth`` is done, the game tree is solved, or the
    deadline / node limit passes. At least the first move in search order comes back
    even if depth 1 never finishes."""
    searcher = Searcher(
        board, clock=clock, budget_ms=budget_ms, node_limit=node_limit, plies_left=plies_left
    )
    return searcher.run(node, max_depth, all_scores)
