"""Tiny behind the game interface (:mod:`games.rules.interface`): the third game, which
lives only under ``tests/`` and proves that a game is one package.

The state is an immutable :class:`~tests.games.tiny.core.position.Position`; its text
form is the one-line compact notation (``"gold sss/.../ggg"``). There is one board and no
rule option: a setup and options are ignored.
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
from tests.games.tiny.bot import choose_move
from tests.games.tiny.bot.levels import LEVELS
from tests.games.tiny.bot.search import search
from tests.games.tiny.core import records
from tests.games.tiny.core.notation import (
    IllegalMoveError,
    InvalidMoveError,
    canonical_square,
    format_move,
    format_square,
    parse_move,
    parse_square,
)
from tests.games.tiny.core.position import (
    MAX_POINTS,
    InvalidPositionError,
    Move,
    Position,
    Side,
)

#: A pawn is a point, a crossed pawn three: a move that gives away a pawn is an
#: inaccuracy, two points a mistake, a crossing's worth a blunder.
ANALYSIS_THRESHOLDS = Thresholds(inaccuracy=100, mistake=200, blunder=300)


class TinyGame:
    """Tiny for the battle workflow.

    >>> game = TinyGame()
    >>> state = game.initial_state()
    >>> game.side_to_move(state), game.legal_moves(state)
    ('gold', ['A1-A2', 'B1-B2', 'C1-C2'])
    >>> state, info = game.apply(state, "b1 - b2")
    >>> state, info = game.apply(state, "a3xb2")
    >>> info.notation, info.captures, game.scores(state)
    ('A3xB2', ('B2',), {'gold': 2, 'silver': 3})
    """

    key = "tiny"
    analysis_thresholds = ANALYSIS_THRESHOLDS
    name = gettext_noop("Tiny")
    sides = (
        SideInfo(Side.GOLD.value, gettext_noop("Gold")),
        SideInfo(Side.SILVER.value, gettext_noop("Silver")),
    )
    words = ("gold", "silver")
    captures_pieces = True
    #: A tournament match records each side's points in both battles, as they are.
    tournament_scale = TournamentScale(
        game=key,
        name=name,
        limits=(MAX_POINTS, MAX_POINTS),
        weights=(1, 1),
        labels=(
            gettext_noop("Battle 1 gold points"),
            gettext_noop("Battle 1 silver points"),
            gettext_noop("Battle 2 gold points"),
            gettext_noop("Battle 2 silver points"),
        ),
        form_labels=(
            gettext_noop("Battle 1: gold points (A)"),
            gettext_noop("Battle 1: silver points (B)"),
            gettext_noop("Battle 2: gold points (B)"),
            gettext_noop("Battle 2: silver points (A)"),
        ),
        wording={
            "pairing_note": gettext_noop("Player A has gold in battle 1 and silver in battle 2."),
            "player_a_heading": gettext_noop("Player A (gold first)"),
            "player_a_column": gettext_noop("Player A (gold in battle 1)"),
            "player_b_column": gettext_noop("Player B (silver in battle 1)"),
            "battle_1": gettext_noop("Battle 1"),
            "battle_2": gettext_noop("Battle 2"),
            "first_side": gettext_noop("Gold"),
            "second_side": gettext_noop("Silver"),
            "first_numbers": gettext_noop("Gold points (0–9)"),
            "second_numbers": gettext_noop("Silver points (0–9)"),
            "first_won": gettext_noop("Gold won"),
            "second_won": gettext_noop("Silver won"),
            "won_as_first": gettext_noop("Won as gold"),
            "won_as_second": gettext_noop("Won as silver"),
            "average_first": gettext_noop("Average points as gold"),
            "average_second": gettext_noop("Average points as silver"),
            "points_rule": gettext_noop(
                "A battle is won by the side that scores more points: one per pawn left, "
                "three per pawn on the far rank. Every confirmed result counts; byes are "
                "not battles."
            ),
            "first_letter": gettext_noop("g"),
            "second_letter": gettext_noop("s"),
            "playoff_note": gettext_noop(
                "A drawn knockout match is replayed as a playoff. Unless ticked, the higher "
                "seed takes gold in battle 1."
            ),
            "playoff_choice": gettext_noop(
                "%(high)s (seed %(seed)d) takes silver first against %(low)s"
            ),
        },
        names=("gold", "silver"),
        names_each=("gold", "silver"),
        numbers_name="points",
    )

    def __init__(self, **_options: Any) -> None:
        pass

    def initial_state(self, setup: Mapping[str, Any] | None = None) -> Position:
        return Position.initial()

    def serialise(self, state: Position) -> str:
        return state.to_compact()

    def deserialise(self, text: str) -> Position:
        try:
            return Position.from_compact(text)
        except InvalidPositionError as exc:
            raise ValueError(str(exc)) from exc

    def side_to_move(self, state: Position) -> str:
        return state.to_move.value

    def legal_moves(self, state: Position) -> list[str]:
        return [format_move(m) for m in state.legal_moves()]

    def apply(self, state: Position, notation: str) -> tuple[Position, MoveInfo]:
        try:
            move = parse_move(notation, state)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise InvalidMove(str(exc)) from exc
        return state.play(move), self._info(move)

    @staticmethod
    def _info(move: Move) -> MoveInfo:
        return MoveInfo(
            notation=format_move(move),
            kind="capture" if move.capture else "step",
            captures=(format_square(move.to_sq),) if move.capture else (),
            extra={"from": format_square(move.from_sq)},
        )

    def pass_turn(self, state: Position) -> Position:
        return state.pass_turn()

    def outcome(self, state: Position) -> Outcome | None:
        if not state.is_over():
            return None
        return Outcome(self.scores(state), "no_legal_move")

    def scores(self, state: Position) -> dict[str, int]:
        return {side.value: state.points(side) for side in Side}

    def candidates(self, state: Position, src: str, dst: str) -> list[MoveInfo]:
        """The legal move from ``src`` to ``dst``, if there is one (never a choice)."""
        try:
            a, b = parse_square(src), parse_square(dst)
        except ValueError:
            return []
        return [self._info(m) for m in state.legal_moves() if (m.from_sq, m.to_sq) == (a, b)]

    def square_name(self, text: str) -> str:
        try:
            return canonical_square(text)
        except ValueError as exc:
            raise InvalidMove(str(exc)) from exc

    def owns(self, state: Position, square: str) -> bool:
        try:
            return state.piece_at(parse_square(square)) is state.to_move
        except ValueError:
            return False

    @staticmethod
    def parse_movetext(text: str) -> tuple[str | None, ...]:
        """The moves of a record's movetext (:func:`.core.records.parse_movetext`)."""
        return records.parse_movetext(text)

    def row_fields(self, state: Position) -> dict[str, Any]:
        return {}

    def result_numbers(self, state: Position) -> tuple[int, int]:
        """Gold's and silver's points (the tournament scale: 0..9 each, as they are)."""
        return state.points(Side.GOLD), state.points(Side.SILVER)

    # --- the computer player (games.rules.interface.BotGame) ---------------------------------

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
        """The computer's move at ``level`` 1-5 (:mod:`.bot`)."""
        choice = choose_move(
            state, level=level, seed=seed, clock=clock, budget_ms=budget_ms, plies_left=plies_left
        )
        return format_move(choice.move)

    def analyse(
        self,
        state: Position,
        *,
        budget_ms: float,
        clock: Callable[[], float],
        plies_left: int | None = None,
    ) -> MoveScores:
        """Every legal move scored by the level-5 search (the whole tree), best first.

        >>> TinyGame().analyse(Position.initial(), budget_ms=1000, clock=lambda: 0.0).best
        ('A1-A2', 0)
        """
        if plies_left is not None and plies_left < 1:
            raise ValueError("plies_left must be at least 1")
        result = search(
            state,
            clock=clock,
            budget_ms=budget_ms * LEVELS[5].budget_share,
            max_depth=LEVELS[5].max_depth,
            plies_left=plies_left,
        )
        return MoveScores(
            scores=tuple((format_move(m), v) for m, v in result.scores),
            depth=result.depth,
            nodes=result.nodes,
        )
