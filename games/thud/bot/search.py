"""Iterative-deepening alpha-beta (negamax) with a transposition table, on bitboards.

The search works on the raw ``(dwarfs, trolls)`` ints and the move generator of
:mod:`games.thud.movegen` (copy-make: a child is two new ints). Time is an argument: the
caller passes ``clock`` (seconds, e.g. ``time.monotonic``) and ``budget_ms``; the deadline
is read from that clock, so tests drive it with a fake one. A depth or node limit makes
a search exactly reproducible; under a time budget alone the depth reached may vary with
the machine's speed, and so may the move.

Under ``subset`` the search considers, for each troll step or shove, only capturing every
adjacent dwarf or none (what ``all_or_none`` allows, each also legal under ``subset``):
sparing a dwarf the troll could take never gains material, and it keeps the tree small.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.interface import WIN
from games.thud.movegen import ALL, ALL_OR_NONE, SUBSET, RawMove, dwarf_moves, troll_moves

from .evaluate import evaluate, final_score

Clock = Callable[[], float]

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Read the clock once every this many nodes.
CLOCK_EVERY = 64
#: Quiescence plies (captures only) after the nominal depth.
QUIESCENCE_PLIES = 4
MAX_DEPTH = 64
#: The most a finished battle's score moves for the plies it takes (below half a point).
PLY_BONUS_CAP = 49


class _OutOfTime(Exception):
    """Unwinds the search when the deadline or node limit passes."""


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


def generate(dwarfs: int, trolls: int, dwarf_turn: bool, policy: str) -> list[RawMove]:
    """The moves the search tries, biggest captures first (see the module note)."""
    if dwarf_turn:
        moves = dwarf_moves(dwarfs, trolls)
    else:
        moves = troll_moves(dwarfs, trolls, ALL_OR_NONE if policy == SUBSET else policy)
    moves.sort(key=lambda m: -m[2].bit_count())
    return moves


def child(dwarfs: int, trolls: int, dwarf_turn: bool, move: RawMove) -> tuple[int, int]:
    f, t, cap = move
    if dwarf_turn:
        return dwarfs ^ (1 << f) ^ (1 << t), trolls & ~cap
    return dwarfs & ~cap, trolls ^ (1 << f) ^ (1 << t)


class Searcher:
    def __init__(
        self,
        policy: str,
        *,
        clock: Clock,
        budget_ms: float,
        node_limit: int | None = None,
        plies_left: int | None = None,
    ) -> None:
        self.policy = policy
        self.clock = clock
        self.started = clock()
        self.deadline = self.started + budget_ms / 1000
        self.node_limit = node_limit
        self.plies_left = plies_left
        self.nodes = 0
        self.table: dict[tuple[int, int, bool], tuple[int, int, int, RawMove | None]] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfTime
        if self.nodes % CLOCK_EVERY == 0 and self.clock() >= self.deadline:
            raise _OutOfTime

    def _static(self, d: int, t: int, dwarf_turn: bool) -> int:
        value = evaluate(d, t, dwarf_turn)
        return value if dwarf_turn else -value

    def _final(self, d: int, t: int, dwarf_turn: bool, ply: int) -> int:
        value = final_score(d, t)
        # Prefer the quicker win and the slower loss; by less than half a point, so that
        # :func:`as_points` (and ``games.interface.points``) still read the margin.
        if value > 0:
            value -= min(ply, PLY_BONUS_CAP)
        elif value < 0:
            value += min(ply, PLY_BONUS_CAP)
        return value if dwarf_turn else -value

    def _quiesce(self, d: int, t: int, dwarf_turn: bool, alpha: int, beta: int, q: int) -> int:
        self._tick()
        if not d or not t:
            return self._final(d, t, dwarf_turn, 0)
        stand = self._static(d, t, dwarf_turn)
        if stand >= beta or q == 0:
            return stand
        alpha = max(alpha, stand)
        if dwarf_turn:
            moves = [m for m in dwarf_moves(d, t) if m[2]]
        else:
            moves = [m for m in troll_moves(d, t, ALL) if m[2]]
            moves.sort(key=lambda m: -m[2].bit_count())
        for move in moves:
            cd, ct = child(d, t, dwarf_turn, move)
            value = -self._quiesce(cd, ct, not dwarf_turn, -beta, -alpha, q - 1)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return alpha

    def _negamax(
        self, d: int, t: int, dwarf_turn: bool, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        self._tick()
        if not d or not t:
            return self._final(d, t, dwarf_turn, ply)
        if self.plies_left is not None and ply >= self.plies_left:
            return self._final(d, t, dwarf_turn, ply)
        if depth == 0:
            return self._quiesce(d, t, dwarf_turn, alpha, beta, QUIESCENCE_PLIES)
        key = (d, t, dwarf_turn)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            e_depth, e_value, e_flag, hint = entry
            if e_depth >= depth and self.plies_left is None:
                if e_flag == _EXACT:
                    return e_value
                if e_flag == _LOWER and e_value >= beta:
                    return e_value
                if e_flag == _UPPER and e_value <= alpha:
                    return e_value
        moves = generate(d, t, dwarf_turn, self.policy)
        if not moves:
            return self._final(d, t, dwarf_turn, ply)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        start_alpha = alpha
        best, best_move = -10 * WIN, moves[0]
        for move in moves:
            cd, ct = child(d, t, dwarf_turn, move)
            value = -self._negamax(cd, ct, not dwarf_turn, depth - 1, -beta, -alpha, ply + 1)
            if value > best:
                best, best_move = value, move
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = _LOWER if best >= beta else _UPPER if best <= start_alpha else _EXACT
        self.table[key] = (depth, best, flag, best_move)
        return best

    def _root(
        self, d: int, t: int, dwarf_turn: bool, moves: list[RawMove], depth: int, exact: bool
    ) -> list[tuple[RawMove, int]]:
        """Each root move with its score; with ``exact`` every score is exact (slower),
        else only the best one is (the others are upper bounds)."""
        alpha = -10 * WIN
        scored = []
        for move in moves:
            cd, ct = child(d, t, dwarf_turn, move)
            lower = -10 * WIN if exact else alpha
            value = -self._negamax(cd, ct, not dwarf_turn, depth - 1, -10 * WIN, -lower, 1)
            scored.append((move, value))
            alpha = max(alpha, value)
        return scored

    def run(
        self, d: int, t: int, dwarf_turn: bool, max_depth: int, all_scores: bool = False
    ) -> SearchResult:
        moves = generate(d, t, dwarf_turn, self.policy)
        if not moves:
            raise ValueError("the side to move has no legal move")
        best: list[tuple[RawMove, int]] = [(moves[0], 0)]
        depth_done, stopped = 0, False
        for depth in range(1, max_depth + 1):
            try:
                scored = self._root(d, t, dwarf_turn, moves, depth, all_scores)
            except _OutOfTime:
                stopped = True
                break
            # Stable sort: ties keep the previous order, so the result is reproducible.
            scored.sort(key=lambda item: -item[1])
            best, depth_done = scored, depth
            moves = [m for m, _ in scored]
            if abs(scored[0][1]) >= WIN // 2 and depth >= 2:
                break  # the result is decided; deeper only confirms it
        return SearchResult(
            move=best[0][0],
            score=best[0][1],
            depth=depth_done,
            nodes=self.nodes,
            stopped=stopped,
            started=self.started,
            finished=self.clock(),
            scores=tuple(best) if all_scores else tuple(best[:1]),
        )


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


def search(
    dwarfs: int,
    trolls: int,
    dwarf_turn: bool,
    policy: str,
    *,
    clock: Clock,
    budget_ms: float,
    max_depth: int = MAX_DEPTH,
    node_limit: int | None = None,
    plies_left: int | None = None,
    all_scores: bool = False,
) -> SearchResult:
    """Search until ``max_depth`` is done or the deadline / node limit passes.

    At least the first move in search order comes back even if depth 1 never finishes.
    """
    searcher = Searcher(
        policy, clock=clock, budget_ms=budget_ms, node_limit=node_limit, plies_left=plies_left
    )
    return searcher.run(dwarfs, trolls, dwarf_turn, max_depth, all_scores)
