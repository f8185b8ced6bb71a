"""Thud behind the game interface (:mod:`games.rules.interface`): a thin adapter, no new rules.

The state is an immutable :class:`~games.thud.Position`; its text form is the 15-line
diagram the battle row has always stored, so existing battles read back unchanged.
The capture policy is an option of the game (one battle's rules), not of the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.rules.interface import (
    InvalidMove,
    MoveInfo,
    MoveScores,
    Outcome,
    SideInfo,
    Thresholds,
    TournamentScale,
    gettext_noop,
)
from games.thud.bot import choose_move
from games.thud.bot.moves import exact_score
from games.thud.bot.search import MAX_DEPTH, search
from games.thud.core import records
from games.thud.core.base import (
    MAX_DWARFS,
    MAX_TROLLS,
    TROLL_POINTS,
    CapturePolicy,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Side,
)
from games.thud.core.board import SQUARE_AT, squares_of
from games.thud.core.notation import format_move, parse_move
from games.thud.core.position import Position
from games.thud.core.squares import canonical_square, format_square, parse_square

#: An analysed move's loss (hundredths of a point) from which it is an inaccuracy, a
#: mistake, a blunder: a dwarf given away (one point), two, a troll's worth (four). The
#: search's positional terms alone move a score by up to a point or so, so a smaller
#: loss says nothing (``bench/analysis.py`` measures the counts: level 5 against
#: itself averages under 3 blunders a side).
ANALYSIS_THRESHOLDS = Thresholds(inaccuracy=100, mistake=200, blunder=400)


class ThudGame:
    """Thud (classic rules) for the battle workflow.

    >>> game = ThudGame()
    >>> state = game.initial_state()
    >>> game.side_to_move(state), len(game.legal_moves(state))
    ('dwarf', 656)
    >>> state, info = game.apply(state, "dF1-F5")
    >>> info.notation, game.side_to_move(state)
    ('d F1-F5', 'troll')
    """

    key = "thud"
    analysis_thresholds = ANALYSIS_THRESHOLDS
    name = gettext_noop("Thud")
    sides = (
        SideInfo(Side.DWARF.value, gettext_noop("Dwarfs")),
        SideInfo(Side.TROLL.value, gettext_noop("Trolls")),
    )
    words = ("dwarfs", "trolls")
    captures_pieces = True
    #: A tournament match records the survivors of both battles: a dwarf is worth one
    #: point, a troll ``TROLL_POINTS``. The stable names (CSV columns ``battle1_dwarfs``,
    #: API keys ``dwarfs_won``, ``avg_dwarf_points``, ``dwarfs_surviving``) are Thud's,
    #: the game the tournament manager began with.
    tournament_scale = TournamentScale(
        game=key,
        name=name,
        limits=(MAX_DWARFS, MAX_TROLLS),
        weights=(1, TROLL_POINTS),
        labels=(
            gettext_noop("Battle 1 surviving dwarfs"),
            gettext_noop("Battle 1 surviving trolls"),
            gettext_noop("Battle 2 surviving dwarfs"),
            gettext_noop("Battle 2 surviving trolls"),
        ),
        form_labels=(
            gettext_noop("Battle 1: surviving dwarfs (A)"),
            gettext_noop("Battle 1: surviving trolls (B)"),
            gettext_noop("Battle 2: surviving dwarfs (B)"),
            gettext_noop("Battle 2: surviving trolls (A)"),
        ),
        wording={
            "pairing_note": gettext_noop(
                "Player A has the dwarfs in battle 1 and the trolls in battle 2."
            ),
            "player_a_heading": gettext_noop("Player A (dwarfs first)"),
            "player_a_column": gettext_noop("Player A (dwarfs in battle 1)"),
            "player_b_column": gettext_noop("Player B (trolls in battle 1)"),
            "battle_1": gettext_noop("Battle 1"),
            "battle_2": gettext_noop("Battle 2"),
            "first_side": gettext_noop("Dwarfs"),
            "second_side": gettext_noop("Trolls"),
            "first_numbers": gettext_noop("Surviving dwarfs (0–32)"),
            "second_numbers": gettext_noop("Surviving trolls (0–8)"),
            "first_won": gettext_noop("Dwarfs won"),
            "second_won": gettext_noop("Trolls won"),
            "won_as_first": gettext_noop("Won as dwarfs"),
            "won_as_second": gettext_noop("Won as trolls"),
            "average_first": gettext_noop("Average points as dwarfs"),
            "average_second": gettext_noop("Average points as trolls"),
            "points_rule": gettext_noop(
                "A battle is won by the side that scores more points: one per surviving "
                "dwarf, four per surviving troll. Every confirmed result counts; byes are "
                "not battles."
            ),
            "first_letter": gettext_noop("d"),
            "second_letter": gettext_noop("t"),
            "playoff_note": gettext_noop(
                "A drawn knockout match is replayed as a playoff. Unless ticked, the higher "
                "seed takes the dwarfs in battle 1."
            ),
            "playoff_choice": gettext_noop(
                "%(high)s (seed %(seed)d) takes the trolls first against %(low)s"
            ),
        },
        names=("dwarfs", "trolls"),
        names_each=("dwarf", "troll"),
        numbers_name="surviving",
        options={
            "capture_policy": (
                # In plain words, as an organiser choosing them reads them (thud-rules.md §6-7).
                (
                    CapturePolicy.SUBSET.value,
                    gettext_noop(
                        "The troll's player chooses which of the dwarfs next to it to take"
                    ),
                ),
                (
                    CapturePolicy.ALL_OR_NONE.value,
                    gettext_noop("All the dwarfs next to the troll, or none"),
                ),
                (CapturePolicy.ALL.value, gettext_noop("Always every dwarf next to the troll")),
            )
        },
    )

    def __init__(self, capture_policy: str = CapturePolicy.SUBSET.value, **_other: Any) -> None:
        self.policy = CapturePolicy(capture_policy).value

    def initial_state(self, setup: Mapping[str, Any] | None = None) -> Position:
        return Position.initial()

    def serialise(self, state: Position) -> str:
        return state.to_diagram()

    def deserialise(self, text: str) -> Position:
        try:
            return Position.from_diagram(text)
        except InvalidPositionError as exc:
            raise ValueError(str(exc)) from exc

    def side_to_move(self, state: Position) -> str:
        return state.side_to_move.value

    def legal_moves(self, state: Position) -> list[str]:
        return [format_move(m) for m in state.legal_moves(self.policy)]

    def parse(self, state: Position, notation: str) -> Move:
        """The engine's move for ``notation`` (the board page builds moves from clicks)."""
        try:
            return parse_move(notation, state, self.policy)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise InvalidMove(str(exc)) from exc

    def apply(self, state: Position, notation: str) -> tuple[Position, MoveInfo]:
        move = self.parse(state, notation)
        return state.play(move, self.policy), self._info(move)

    @staticmethod
    def _info(move: Move) -> MoveInfo:
        return MoveInfo(
            notation=format_move(move),
            kind=move.kind,
            captures=tuple(format_square(sq) for sq in move.captures),
            extra={"from": format_square(move.from_sq)},
        )

    def pass_turn(self, state: Position) -> Position:
        return state.pass_turn()

    def outcome(self, state: Position) -> Outcome | None:
        result = state.outcome(self.policy)
        if result is None:
            return None
        # A side without pieces is a side without a legal move (DESIGN.md §2): one reason.
        return Outcome(self.scores(state), "no_legal_move")

    def scores(self, state: Position) -> dict[str, int]:
        dwarf_points, troll_points = state.score()
        return {Side.DWARF.value: dwarf_points, Side.TROLL.value: troll_points}

    def candidates(self, state: Position, src: str, dst: str) -> list[MoveInfo]:
        """The legal moves from ``src`` to ``dst``: several when captures are a choice."""
        try:
            a, b = parse_square(src), parse_square(dst)
        except ValueError:
            return []
        return [
            self._info(m) for m in state.legal_moves(self.policy) if (m.from_sq, m.to_sq) == (a, b)
        ]

    def square_name(self, text: str) -> str:
        try:
            return canonical_square(text)
        except ValueError as exc:
            raise InvalidMove(str(exc)) from exc

    def owns(self, state: Position, square: str) -> bool:
        """Whether ``square`` holds a piece of the side to move (what a player may touch)."""
        try:
            sq = parse_square(square)
        except ValueError:
            return False
        return state.piece_at(sq) == state.side_to_move.letter

    @staticmethod
    def parse_movetext(text: str) -> tuple[str | None, ...]:
        """The moves of a record's movetext (:func:`games.thud.core.records.parse_movetext`)."""
        return records.parse_movetext(text)

    def row_fields(self, state: Position) -> dict[str, Any]:
        return {"first_count": state.dwarf_count, "second_count": state.troll_count}

    def result_numbers(self, state: Position) -> tuple[int, int]:
        """Pieces left of each side: a Thud match result records survivors, and its
        ``tournament_scale`` makes them points."""
        return state.dwarf_count, state.troll_count

    # --- the computer player (games.rules.interface.BotGame) ------------------------------------

    @staticmethod
    def _playable(state: Position) -> None:
        if not state.dwarfs or not state.trolls:
            raise ValueError("the battle is over: a side has no pieces")

    def bot_move(
        self,
        state: Position,
        *,
        level: int,
        seed: int,
        budget_ms: float,
        clock: Callable[[], float],
        plies_left: int | None = None,
    ) -> str:
        """The computer's move at ``level`` (1-5) within ``budget_ms`` of ``clock``.

        >>> game = ThudGame("all_or_none")
        >>> state = Position.from_compact("dwarf dA7,dB7,dC7,dD7,dE7,TJ7")
        >>> game.bot_move(state, level=5, seed=0, budget_ms=1000, clock=lambda: 0.0)
        'd E7-J7 xJ7'
        """
        self._playable(state)
        choice = choose_move(
            state,
            self.policy,
            level=level,
            seed=seed,
            clock=clock,
            budget_ms=budget_ms,
            plies_left=plies_left,
        )
        return format_move(choice.move)

    def analyse(
        self,
        state: Position,
        *,
        budget_ms: float,
        clock: Callable[[], float],
        plies_left: int | None = None,
        max_depth: int | None = None,
    ) -> MoveScores:
        """Every move the level-5 search tries, scored and best first (see
        :class:`~games.rules.interface.MoveScores`; a finished battle scores exactly ``±WIN``
        plus its margin); ``max_depth`` caps the search (tests).

        >>> game = ThudGame("all")
        >>> state = Position.from_compact("troll dF5,TH5,dN12,dM12")
        >>> scores = game.analyse(state, budget_ms=1000, clock=lambda: 0.0, max_depth=2)
        >>> scores.best[0][-3:], scores.depth, len(scores.scores) == len(game.legal_moves(state))
        ('xF5', 2, True)
        """
        self._playable(state)
        if plies_left is not None and plies_left < 1:
            raise ValueError("plies_left must be at least 1")
        result = search(
            state._d,
            state._t,
            state.side_to_move is Side.DWARF,
            self.policy,
            clock=clock,
            budget_ms=budget_ms,
            plies_left=plies_left,
            all_scores=True,
            max_depth=MAX_DEPTH if max_depth is None else max_depth,
        )
        moves = state._to_moves([raw for raw, _ in result.scores])
        by_raw = {(m.from_sq, m.to_sq, m.captures): format_move(m) for m in moves}
        scored = []
        for (f, t, cap), value in result.scores:
            key = (SQUARE_AT[f], SQUARE_AT[t], squares_of(cap))
            scored.append((by_raw[key], exact_score(value)))
        return MoveScores(scores=tuple(scored), depth=result.depth, nodes=result.nodes)
