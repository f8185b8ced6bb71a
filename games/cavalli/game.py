"""Battaglia di Cavalli behind the game interface (:mod:`games.rules.interface`).

The state is an immutable :class:`~games.cavalli.Position` (board numbers included);
its text form is the one-line compact notation of :meth:`Position.to_compact`. The
setup of a new game is the board: ``{"board_seed": n}`` (a seeded shuffle) or
``{"board": text}`` (a printed board); without either, seed 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.cavalli.bot import choose_move
from games.cavalli.bot.levels import to_move
from games.cavalli.core.base import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Side,
)
from games.cavalli.core.board import SIZE, Board, InvalidBoardError
from games.cavalli.core.notation import (
    canonical_square,
    format_move,
    format_square,
    parse_move,
    parse_square,
)
from games.cavalli.core.position import Position
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

#: The most points one side can score: every number 00..99 (sum 0..99 = 4950).
MAX_POINTS = sum(range(SIZE * SIZE))


#: An analysed move's loss (hundredths of a point) from which it is an inaccuracy, a
#: mistake, a blunder: a square scores 0 to 99 points, so 15, 30 and 60 points (a
#: blunder gives away more than an average square). The search of a board of numbers
#: often differs by a few points between depths: a smaller loss says nothing
#: (``bench/analysis.py`` measures the counts: level 5 against itself averages under 3
#: blunders a side).
ANALYSIS_THRESHOLDS = Thresholds(inaccuracy=1500, mistake=3000, blunder=6000)


class CavalliGame:
    """Battaglia di Cavalli for the battle workflow.

    >>> game = CavalliGame()
    >>> state = game.initial_state({"board_seed": 7})
    >>> game.side_to_move(state), game.legal_moves(state)[:2]
    ('white', ['A1 xC1', 'A1 xA2'])
    >>> state, info = game.apply(state, "a1 x c1")
    >>> info.notation, info.captures, game.scores(state)
    ('A1 xC1', ('C1',), {'white': 33, 'black': 0})
    """

    key = "cavalli"
    analysis_thresholds = ANALYSIS_THRESHOLDS
    name = gettext_noop("Battaglia di Cavalli")
    sides = (
        SideInfo(Side.WHITE.value, gettext_noop("White")),
        SideInfo(Side.BLACK.value, gettext_noop("Black")),
    )
    words = ("white", "black")
    captures_pieces = False
    #: A tournament match records each side's points in both games, as they are.
    tournament_scale = TournamentScale(
        game=key,
        name=name,
        limits=(MAX_POINTS, MAX_POINTS),
        weights=(1, 1),
        labels=(
            gettext_noop("Game 1 white points"),
            gettext_noop("Game 1 black points"),
            gettext_noop("Game 2 white points"),
            gettext_noop("Game 2 black points"),
        ),
        form_labels=(
            gettext_noop("Game 1: white points (A)"),
            gettext_noop("Game 1: black points (B)"),
            gettext_noop("Game 2: white points (B)"),
            gettext_noop("Game 2: black points (A)"),
        ),
        wording={
            "pairing_note": gettext_noop("Player A has white in game 1 and black in game 2."),
            "player_a_heading": gettext_noop("Player A (white in game 1)"),
            "player_a_column": gettext_noop("Player A (white in game 1)"),
            "player_b_column": gettext_noop("Player B (black in game 1)"),
            "battle_1": gettext_noop("Game 1"),
            "battle_2": gettext_noop("Game 2"),
            "first_side": gettext_noop("White"),
            "second_side": gettext_noop("Black"),
            "first_numbers": gettext_noop("White points (0–4950)"),
            "second_numbers": gettext_noop("Black points (0–4950)"),
            "first_won": gettext_noop("White won"),
            "second_won": gettext_noop("Black won"),
            "won_as_first": gettext_noop("Won as white"),
            "won_as_second": gettext_noop("Won as black"),
            "average_first": gettext_noop("Average points as white"),
            "average_second": gettext_noop("Average points as black"),
            "points_rule": gettext_noop(
                "A game is won by the side that scores more points; each side's points "
                "are recorded as they were scored. Every confirmed result counts; byes "
                "are not games."
            ),
            "first_letter": gettext_noop("w"),
            "second_letter": gettext_noop("b"),
            "playoff_note": gettext_noop(
                "A drawn knockout match is replayed as a playoff. Unless ticked, the higher "
                "seed takes white in game 1."
            ),
            "playoff_choice": gettext_noop(
                "%(high)s (seed %(seed)d) takes black first against %(low)s"
            ),
        },
        names=("white", "black"),
        names_each=("white", "black"),
        numbers_name="scored",
    )

    def __init__(self, **_options: Any) -> None:
        pass

    def initial_state(self, setup: Mapping[str, Any] | None = None) -> Position:
        setup = setup or {}
        try:
            if setup.get("board"):
                board = Board.parse(setup["board"])
            else:
                board = Board.from_seed(int(setup.get("board_seed") or 0))
        except InvalidBoardError as exc:
            raise ValueError(str(exc)) from exc
        return Position.initial(board)

    def serialise(self, state: Position) -> str:
        return state.to_compact()

    def deserialise(self, text: str) -> Position:
        try:
            return Position.from_compact(text)
        except (InvalidPositionError, InvalidBoardError) as exc:
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
        return state.apply(move), self._info(move)

    @staticmethod
    def _info(move: Move) -> MoveInfo:
        captures = () if move.choice is None else (format_square(move.choice),)
        return MoveInfo(notation=format_move(move), kind="move", captures=captures)

    def candidates(self, state: Position, src: str, dst: str) -> list[MoveInfo]:
        """The legal moves landing on ``dst`` (the knight is implied: ``src`` is ignored);
        several when landing on a double leaves a choice of the double to strike out."""
        try:
            to = parse_square(dst)
        except ValueError:
            return []
        return [self._info(m) for m in state.legal_moves() if m.to == to]

    def square_name(self, text: str) -> str:
        try:
            return canonical_square(text)
        except ValueError as exc:
            raise InvalidMove(str(exc)) from exc

    def owns(self, state: Position, square: str) -> bool:
        try:
            return state.knight_at(parse_square(square)) == state.to_move
        except ValueError:
            return False

    def pass_turn(self, state: Position) -> Position:
        return state.pass_turn()

    def outcome(self, state: Position) -> Outcome | None:
        result = state.outcome()
        if result is None:
            return None
        return Outcome(self.scores(state), result.termination.value)

    def scores(self, state: Position) -> dict[str, int]:
        return {Side.WHITE.value: state.white_score, Side.BLACK.value: state.black_score}

    def row_fields(self, state: Position) -> dict[str, Any]:
        return {}

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
        """The move of the computer player (:mod:`.bot`) at ``level`` 1-5."""
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
        """Every legal move scored by the level-5 search, best first.

        >>> game = CavalliGame()
        >>> state = game.initial_state({"board_seed": 7})
        >>> scores = game.analyse(state, budget_ms=1e9, clock=lambda: 0.0, plies_left=2)
        >>> len(scores.scores) == len(game.legal_moves(state)), scores.depth
        (True, 2)
        """
        choice = choose_move(
            state,
            level=5,
            clock=clock,
            budget_ms=budget_ms,
            plies_left=plies_left,
            all_scores=True,
        )
        result = choice.result
        return MoveScores(
            scores=tuple((format_move(to_move(raw)), score) for raw, score in result.scores),
            depth=result.depth,
            nodes=result.nodes,
        )

    def result_numbers(self, state: Position) -> tuple[int, int]:
        """White's and black's points (the tournament scale: 0..4950 each, as they are)."""
        return state.white_score, state.black_score
