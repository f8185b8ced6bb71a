"""Iterative-deepening alpha-beta (negamax) with a transposition table, on bitboards.

The search works on the raw ``(dwarfs, trolls)`` ints and the move generator of
:mod:`games.thud.core.movegen` (copy-make: a child is two new ints). Time is an argument: the
caller passes ``clock`` (seconds, e.g. ``time.monotonic``) and ``budget_ms``; the deadline
is read from that clock, so tests drive it with a fake one. A depth or node limit makes
a search exactly reproducible; under a time budget alone the depth reached may vary with
the machine's speed, and so may the move.

The moves it tries (and the ``subset`` shortcut) are in :mod:`.moves`.
"""

from __future__ import annotations

import gc
from collections import defaultdict

from games.rules.interface import WIN
from games.thud.bot.evaluate import evaluate, final_score
from games.thud.bot.moves import Clock, SearchResult, capture_size, child, generate, search_moves
from games.thud.core.movegen import RawMove, hurls, troll_captures

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Read the clock once every this many nodes.
CLOCK_EVERY = 64
#: Quiescence plies (captures only) after the nominal depth.
QUIESCENCE_PLIES = 4
MAX_DEPTH = 64
#: The most a finished battle's score moves for the plies it takes (below half a point).
PLY_BONUS_CAP = 49
#: Futility margins by remaining depth (hundredths of a point), and the quiet moves a node
#: searches at full depth before it reduces the rest by a ply.
FUTILITY = (0, 150, 450)
LMR_AFTER = 6
#: The root moves searched at full depth first (the rest a ply shallower unless they beat
#: alpha there).
ROOT_LMR_AFTER = 8
#: Within this many plies of the move limit the evaluation counts material and threats only.
LATE_PLIES = 2
#: Null-move pruning: at a node this deep or deeper, whose static score is at least beta,
#: let the side to move pass and search the rest this many plies shallower.
NULL_MOVE_DEPTH = 2
NULL_MOVE_R = 2
#: At depth 1: what a quiet move may add to the position after a pass.
QUIET_MARGIN = 100
#: The static evaluations a search keeps (positions recur across the root's moves).
EVALUATIONS_KEPT = 1 << 20


class _OutOfTime(Exception):
    """Unwinds the search when the deadline or node limit passes."""


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
        # By quiet move (its capture mask is 0); a default of 0 lets sort read it directly.
        self.history: defaultdict[RawMove, int] = defaultdict(int)
        self.killers: list[list[RawMove]] = []
        self.evaluations: dict[tuple[int, int, bool, bool], int] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfTime
        if self.nodes % CLOCK_EVERY == 0 and self.clock() >= self.deadline:
            raise _OutOfTime

    def _static(self, d: int, t: int, dwarf_turn: bool, ply: int) -> int:
        # Near the move limit only what can still be taken counts, not the shape.
        late = self.plies_left is not None and self.plies_left - ply <= LATE_PLIES
        key = (d, t, dwarf_turn, late)
        value = self.evaluations.get(key)
        if value is None:
            if len(self.evaluations) >= EVALUATIONS_KEPT:
                self.evaluations.clear()
            value = evaluate(d, t, dwarf_turn, positional=not late)
            if dwarf_turn is False:
                value = -value
            self.evaluations[key] = value
        return value

    def _final(self, d: int, t: int, dwarf_turn: bool, ply: int) -> int:
        value = final_score(d, t)
        # Prefer the quicker win and the slower loss; by less than half a point, so that
        # :func:`exact_score` (and ``games.rules.interface.points``) still read the margin.
        if value > 0:
            value -= min(ply, PLY_BONUS_CAP)
        elif value < 0:
            value += min(ply, PLY_BONUS_CAP)
        return value if dwarf_turn else -value

    def _quiesce(
        self, d: int, t: int, dwarf_turn: bool, alpha: int, beta: int, q: int, ply: int
    ) -> int:
        self._tick()
        if not d or not t or (self.plies_left is not None and ply >= self.plies_left):
            return self._final(d, t, dwarf_turn, ply)
        stand = self._static(d, t, dwarf_turn, ply)
        if stand >= beta or q == 0:
            return stand
        if stand > alpha:
            alpha = stand
        if dwarf_turn:
            moves = hurls(d, t)
        else:
            moves = troll_captures(d, t)
            if len(moves) > 1:
                moves.sort(key=capture_size, reverse=True)
        for f, to, cap in moves:
            if dwarf_turn:
                cd, ct = d ^ (1 << f) ^ (1 << to), t & ~cap
            else:
                cd, ct = d & ~cap, t ^ (1 << f) ^ (1 << to)
            value = -self._quiesce(cd, ct, not dwarf_turn, -beta, -alpha, q - 1, ply + 1)
            if value >= beta:
                return value
            if value > alpha:
                alpha = value
        return alpha

    def _order(self, moves: list[RawMove], hint: RawMove | None, ply: int) -> list[RawMove]:
        """The TT move, the captures (biggest first), the killers, then by history."""
        captures = [m for m in moves if m[2]]
        quiet = [m for m in moves if not m[2]]
        captures.sort(key=capture_size, reverse=True)
        quiet.sort(key=self.history.__getitem__, reverse=True)
        if ply < len(self.killers):
            for killer in reversed(self.killers[ply]):
                if killer in quiet:
                    quiet.remove(killer)
                    quiet.insert(0, killer)
        ordered = captures + quiet
        if hint is not None and hint in moves:
            ordered.remove(hint)
            ordered.insert(0, hint)
        return ordered

    def _negamax(
        self,
        d: int,
        t: int,
        dwarf_turn: bool,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        passed: bool = False,
    ) -> int:
        self._tick()
        if not d or not t:
            return self._final(d, t, dwarf_turn, ply)
        limit = self.plies_left
        if limit is not None and ply >= limit:
            return self._final(d, t, dwarf_turn, ply)
        if depth == 0:
            return self._quiesce(d, t, dwarf_turn, alpha, beta, QUIESCENCE_PLIES, ply)
        # The table's values hold wherever the move limit is out of the search's reach.
        free = limit is None or ply + depth + QUIESCENCE_PLIES < limit
        key = (d, t, dwarf_turn)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            e_depth, e_value, e_flag, hint = entry
            if e_depth >= depth and free:
                if e_flag == _EXACT:
                    return e_value
                if e_flag == _LOWER and e_value >= beta:
                    return e_value
                if e_flag == _UPPER and e_value <= alpha:
                    return e_value
        if (
            NULL_MOVE_R
            and depth >= NULL_MOVE_DEPTH
            and not passed
            and free
            and beta - alpha == 1
            and self._static(d, t, dwarf_turn, ply) >= beta
        ):
            value = -self._negamax(
                d,
                t,
                not dwarf_turn,
                max(depth - 1 - NULL_MOVE_R, 0),
                -beta,
                -beta + 1,
                ply + 1,
                True,
            )
            if value >= beta and abs(value) < WIN // 2:
                return value
        # Futility: at the frontier, when even the position after a pass (depth 1) or as it
        # stands (depth 2) plus a margin cannot reach alpha, only captures are searched.
        futile = False
        if depth <= 2 and free:
            bound = self._static(d, t, dwarf_turn, ply) + FUTILITY[depth]
            if bound > alpha and depth == 1:
                bound = -self._static(d, t, not dwarf_turn, ply + 1) + QUIET_MARGIN
            futile = bound <= alpha
        if futile:
            moves = hurls(d, t) if dwarf_turn else troll_captures(d, t)
            if not moves:
                return bound
            moves.sort(key=capture_size, reverse=True)
            if hint is not None and hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
        else:
            moves = search_moves(d, t, dwarf_turn, self.policy)
            if not moves:
                return self._final(d, t, dwarf_turn, ply)
            moves = self._order(moves, hint, ply)
        start_alpha = alpha
        best, best_move = (bound if futile else -10 * WIN), moves[0]
        first = True
        for searched, move in enumerate(moves, 1):
            f, to, cap = move
            if dwarf_turn:
                cd, ct = d ^ (1 << f) ^ (1 << to), t & ~cap
            else:
                cd, ct = d & ~cap, t ^ (1 << f) ^ (1 << to)
            if first:
                value = -self._negamax(cd, ct, not dwarf_turn, depth - 1, -beta, -alpha, ply + 1)
                first = False
            else:
                # Late quiet moves are searched a ply shallower first (re-searched if they
                # look better); then principal variation search: prove the move no better
                # than alpha, else search it with the full window.
                reduce = 1 if depth >= 3 and not cap and searched > LMR_AFTER else 0
                value = -self._negamax(
                    cd, ct, not dwarf_turn, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1
                )
                if reduce and value > alpha:
                    value = -self._negamax(
                        cd, ct, not dwarf_turn, depth - 1, -alpha - 1, -alpha, ply + 1
                    )
                if alpha < value < beta:
                    value = -self._negamax(
                        cd, ct, not dwarf_turn, depth - 1, -beta, -alpha, ply + 1
                    )
            if value > best:
                best, best_move = value, move
            if value > alpha:
                alpha = value
            if alpha >= beta:
                if not cap:
                    self._remember(move, depth, ply)
                break
        flag = _LOWER if best >= beta else _UPPER if best <= start_alpha else _EXACT
        self.table[key] = (depth if free else -1, best, flag, best_move)
        return best

    def _remember(self, move: RawMove, depth: int, ply: int) -> None:
        """A quiet move that cut off: a killer at its ply, and history by depth."""
        self.history[move] += depth * depth
        while len(self.killers) <= ply:
            self.killers.append([])
        killers = self.killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]

    def _root(
        self,
        d: int,
        t: int,
        dwarf_turn: bool,
        moves: list[RawMove],
        depth: int,
        exact: bool,
        scored: list[tuple[RawMove, int]],
    ) -> None:
        """Each root move with its score, appended to ``scored`` as it is known (so an
        interrupted iteration leaves what it finished); with ``exact`` every score is exact
        (slower), else the first is and a later one only where it beats those before it
        (the others are upper bounds). Without ``exact``, a quiet move after the first
        :data:`ROOT_LMR_AFTER` (the moves come best first from the last iteration) is first
        searched a ply shallower, and again at full depth only if it then beats alpha."""
        alpha = -10 * WIN
        for searched, move in enumerate(moves, 1):
            cd, ct = child(d, t, dwarf_turn, move)
            if exact or not scored:
                value = -self._negamax(cd, ct, not dwarf_turn, depth - 1, -10 * WIN, 10 * WIN, 1)
            else:
                reduce = depth >= 3 and not move[2] and searched > ROOT_LMR_AFTER
                value = alpha + 1
                if reduce:
                    value = -self._negamax(cd, ct, not dwarf_turn, depth - 2, -alpha - 1, -alpha, 1)
                if value > alpha:
                    value = -self._negamax(cd, ct, not dwarf_turn, depth - 1, -alpha - 1, -alpha, 1)
                if value > alpha:
                    value = -self._negamax(cd, ct, not dwarf_turn, depth - 1, -10 * WIN, -alpha, 1)
            scored.append((move, value))
            alpha = max(alpha, value)

    def run(
        self, d: int, t: int, dwarf_turn: bool, max_depth: int, all_scores: bool = False
    ) -> SearchResult:
        moves = generate(d, t, dwarf_turn, self.policy)
        if not moves:
            raise ValueError("the side to move has no legal move")
        # The tables fill with small tuples that hold no cycles: the collector would only
        # rescan them, again and again (a quarter of a long search's time).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._deepen(d, t, dwarf_turn, moves, max_depth, all_scores)
        finally:
            if collecting:
                gc.enable()

    def _deepen(
        self,
        d: int,
        t: int,
        dwarf_turn: bool,
        moves: list[RawMove],
        max_depth: int,
        all_scores: bool,
    ) -> SearchResult:
        best: list[tuple[RawMove, int]] = [(moves[0], 0)]
        depth_done, stopped = 0, False
        for depth in range(1, max_depth + 1):
            scored: list[tuple[RawMove, int]] = []
            try:
                self._root(d, t, dwarf_turn, moves, depth, all_scores, scored)
            except _OutOfTime:
                stopped = True
                # The interrupted iteration searched the last best move first: a move it
                # proved better at this depth is the better choice (not for all_scores,
                # whose scores must all come from one depth).
                if scored and not all_scores:
                    found = max(scored, key=lambda item: item[1])
                    if depth_done == 0 or found[0] != best[0][0]:
                        best = [found]
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

    A move always comes back, even if depth 1 never finishes. When the deadline stops an
    iteration, a move it already proved better than the last iteration's best is played
    (``depth`` still names the last finished iteration).
    """
    searcher = Searcher(
        policy, clock=clock, budget_ms=budget_ms, node_limit=node_limit, plies_left=plies_left
    )
    return searcher.run(dwarfs, trolls, dwarf_turn, max_depth, all_scores)
