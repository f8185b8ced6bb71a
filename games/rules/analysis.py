"""The analysis of a finished battle: every position searched, every move judged (pure).

No Django: the rules object, the positions and the moves in, plain rows out; time is the
``clock`` passed in (the search of :meth:`games.rules.interface.BotGame.analyse` reads it).

For a battle of ``n`` plies, ``states[k]`` is the position after ``k`` plies (``n + 1`` of
them, see :func:`positions`) and ``moves[k]`` the move of ply ``k + 1`` in canonical
notation (``None``: a forfeited turn, which is a pass and is skipped). Each open position
is searched once, with the same budget; the search's scores are hundredths of a point
from the side to move's view (a finished battle beyond :data:`interface.WIN`).

A row per move played (:class:`PlyRow`):

* ``evaluation``: the position after the move, in points from the *first* side's view
  (what the graph draws); a finished battle counts its margin;
* ``best``: the best move found before it, where it scores more than the move played;
* ``reply``: the opponent's best reply after the move (the best move of the next search);
* ``loss``: points the move cost from the mover's view (best minus played, never below
  zero); ``judgement`` what the game's thresholds make of it
  (:attr:`games.rules.interface.BotGame.analysis_thresholds`: ``"blunder"``, ``"mistake"``,
  ``"inaccuracy"`` or ``""``).

A search that did not finish its first depth within the budget judges nothing (its
position has no value: the row says what it can from the other search). A played move the
search did not score (Thud's ``subset`` policy scores only all-or-none
captures) is scored by the search of the position after it, negated: the next position
is searched anyway, for its own row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.rules.interface import BLUNDER, MISTAKE, WIN, BotGame, Game, MoveScores, Thresholds

#: The search budget of one position, and the most a whole battle's analysis may take.
MS_PER_POSITION = 800
MS_PER_BATTLE = 75_000
MS_PER_POSITION_MIN = 100


def budget_ms(positions: int) -> int:
    """Milliseconds per position: :data:`MS_PER_POSITION`, less for a long battle.

    >>> budget_ms(61), budget_ms(200), budget_ms(10_000)
    (800, 375, 100)
    """
    return max(MS_PER_POSITION_MIN, min(MS_PER_POSITION, MS_PER_BATTLE // max(positions, 1)))


@dataclass(frozen=True)
class PlyRow:
    ply: int  # 1 = the first move
    side: str  # the mover's side key
    move: str
    evaluation: float | None  # points, the first side's view, after the move (None: unknown)
    best: str  # "" when the move played is the best found
    reply: str  # "" when the battle ended with the move
    loss: float  # points, >= 0
    judgement: str  # "blunder", "mistake", "inaccuracy" or ""

    @property
    def mistake(self) -> bool:
        """A mistake or worse (what the graph marks)."""
        return self.judgement in (MISTAKE, BLUNDER)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlyRow:
        """A stored row; one stored before moves were judged in three classes (it has
        ``mistake``, a flag) keeps its flag as a mistake."""
        if "judgement" not in data:
            data = data | {"judgement": MISTAKE if data.get("mistake") else ""}
        return cls(**{name: data[name] for name in cls.__dataclass_fields__})


def margin(score: int) -> int:
    """A search score without the bonus of a finished battle (hundredths of a point).

    >>> margin(WIN + 300), margin(-WIN - 50), margin(-49)
    (300, -50, -49)
    """
    if score >= WIN:
        return score - WIN
    if score <= -WIN:
        return score + WIN
    return score


def as_points(hundredths: int) -> float:
    return round(hundredths / 100, 2)


def positions(rules: Game, start: Any, moves: Sequence[str | None]) -> list[Any]:
    """The position after each ply, the start included (``len(moves) + 1`` of them);
    :class:`games.rules.interface.InvalidMove` for a move the rules refuse."""
    states = [start]
    for move in moves:
        state = states[-1]
        states.append(rules.pass_turn(state) if move is None else rules.apply(state, move)[0])
    return states


def _final_score(rules: Game, state: Any) -> int:
    """A finished battle as a search scores it: beyond ``WIN`` by the margin, from the
    side to move's view."""
    scores = rules.scores(state)
    mine = rules.side_to_move(state)
    diff = 100 * sum(value if side == mine else -value for side, value in scores.items())
    if diff > 0:
        return WIN + diff
    if diff < 0:
        return -WIN + diff
    return 0


@dataclass(frozen=True)
class _Searched:
    #: The position's score from the side to move's view; ``None`` when the search did not
    #: finish its first depth (its order of moves is then no judgement).
    value: int | None
    scores: MoveScores | None  # None: the battle was over here, or the search unfinished


def _search_all(
    rules: BotGame,
    game: Game,
    states: Sequence[Any],
    *,
    budget_ms: float,
    clock: Callable[[], float],
    max_plies: int | None,
    wanted: set[int],
    progress: Callable[[int, int], None] | None,
) -> dict[int, _Searched]:
    found: dict[int, _Searched] = {}
    for done, k in enumerate(sorted(wanted)):
        state = states[k]
        plies_left = None if max_plies is None else max_plies - k
        if (plies_left is not None and plies_left <= 0) or game.outcome(state) is not None:
            found[k] = _Searched(_final_score(game, state), None)
        else:
            scores = rules.analyse(state, budget_ms=budget_ms, clock=clock, plies_left=plies_left)
            searched = scores.depth > 0
            found[k] = _Searched(scores.best[1] if searched else None, scores if searched else None)
        if progress is not None:
            progress(done + 1, len(wanted))
    return found


def _row(
    rules: Game,
    thresholds: Thresholds,
    k: int,
    move: str,
    mover: str,
    before: _Searched,
    after: _Searched,
) -> PlyRow:
    """The row of ply ``k + 1``, ``move`` by ``mover``, from the searches before and after."""
    # After the move the opponent is to move: its score, negated, is the mover's.
    after_for_mover = None if after.value is None else -after.value
    best, loss, played = "", 0, after_for_mover
    if before.scores is not None:
        own = before.scores.score_of(move)
        played = own if own is not None else after_for_mover
        if played is not None:
            best_move, best_score = before.scores.best
            loss = max(0, margin(best_score) - margin(played))
            best = best_move if best_move != move and loss > 0 else ""
    shown = after_for_mover if after_for_mover is not None else played
    view = 1 if mover == rules.sides[0].key else -1
    return PlyRow(
        ply=k + 1,
        side=mover,
        move=move,
        evaluation=None if shown is None else as_points(view * margin(shown)),
        best=best,
        reply=after.scores.best[0] if after.scores is not None else "",
        loss=as_points(loss),
        judgement=thresholds.judge(loss),
    )


def analyse_battle(
    rules: Game,
    states: Sequence[Any],
    moves: Sequence[str | None],
    *,
    budget_ms: float,
    clock: Callable[[], float],
    max_plies: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[PlyRow]:
    """One row per move played (see the module note); ``progress(done, total)`` after
    each position. ``TypeError`` if the game has no search (:class:`BotGame`)."""
    if not isinstance(rules, BotGame):
        raise TypeError(f"{rules.key} has no analysis")
    if len(states) != len(moves) + 1:
        raise ValueError("states must hold the position after every ply, the start included")
    played = [k for k, move in enumerate(moves) if move is not None]
    thresholds = rules.analysis_thresholds
    found = _search_all(
        rules,
        rules,
        states,
        budget_ms=budget_ms,
        clock=clock,
        max_plies=max_plies,
        wanted=set(played) | {k + 1 for k in played},
        progress=progress,
    )
    return [
        _row(rules, thresholds, k, move, rules.side_to_move(states[k]), found[k], found[k + 1])
        for k in played
        if (move := moves[k]) is not None
    ]
