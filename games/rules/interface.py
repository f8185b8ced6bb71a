"""The one game interface every battle is played through (Thud, Battaglia di Cavalli).

Terminology and invariants:
- A *game* is a stateless rules object (:class:`Game`); its *state* is an opaque,
  immutable value that the game alone understands. The battle row stores it as the
  text of :meth:`Game.serialise` and reads it back with :meth:`Game.deserialise`.
- A game has two *sides* in turn order (:attr:`Game.sides`): the first side moves first
  (see each game's ``sides``). The workflow (``games.battles``), the clock
  and the pages only ever handle side *keys*; names are for people.
- Moves travel as canonical notation strings. :meth:`Game.apply` checks a move, returns the
  new state and a :class:`MoveInfo` (canonical notation, kind, captured squares), or raises
  :class:`InvalidMove` with a message for the player.
- :meth:`Game.outcome` is ``None`` while play goes on, else an :class:`Outcome` with the
  score of each side. :meth:`Game.scores` gives the scores of an unfinished state (a
  battle ended by agreement, move limit or a referee ends with them).

This module is pure Python (no Django): display names are plain English strings marked
for translation with :func:`gettext_noop`; pages translate them when they show them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


def gettext_noop(text: str) -> str:
    """Mark ``text`` for ``makemessages`` without importing Django (the caller translates)."""
    return text


class InvalidMove(ValueError):
    """A move that cannot be played here (bad syntax or not legal); ``str()`` says why."""


@dataclass(frozen=True)
class SideInfo:
    key: str
    name: str  # English, marked with gettext_noop: translate when showing it


@dataclass(frozen=True)
class MoveInfo:
    """What :meth:`Game.apply` did: enough to store and show the move."""

    notation: str
    kind: str = "move"
    captures: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """A finished game: each side's score (by side key) and why it ended."""

    scores: Mapping[str, int]
    reason: str

    @property
    def winner(self) -> str | None:
        """The side key with the higher score, or ``None`` for a draw.

        >>> Outcome({"a": 3, "b": 1}, "x").winner, Outcome({"a": 2, "b": 2}, "x").winner
        ('a', None)
        """
        (a, sa), (b, sb) = self.scores.items()
        if sa == sb:
            return None
        return a if sa > sb else b


@runtime_checkable
class Game(Protocol):
    """The rules of one game, as the battle workflow and pages need them."""

    key: str
    name: str
    sides: tuple[SideInfo, SideInfo]
    #: The sides' stable names in files and API keys (ASCII, lower case, never
    #: translated), in turn order: a game record's player tags are these capitalised.
    words: tuple[str, str]
    #: Whether a move may take the opponent's pieces (Thud's captures). A game whose
    #: moves take no pieces (Cavalli strikes out squares: its ``MoveInfo.captures`` are
    #: those squares) shows no capture counts and says no "captured".
    captures_pieces: bool
    # How the game is drawn (templates, style sheet, presenters) is not the engine's: its
    # web module declares a ``games.rules.presentation.Presentation``.

    def initial_state(self, setup: Mapping[str, Any] | None = None) -> Any: ...
    def serialise(self, state: Any) -> str: ...
    def deserialise(self, text: str) -> Any: ...
    def side_to_move(self, state: Any) -> str: ...
    def legal_moves(self, state: Any) -> list[str]: ...
    def apply(self, state: Any, notation: str) -> tuple[Any, MoveInfo]: ...
    def pass_turn(self, state: Any) -> Any: ...
    def outcome(self, state: Any) -> Outcome | None: ...
    def scores(self, state: Any) -> dict[str, int]: ...
    def candidates(self, state: Any, src: str, dst: str) -> list[MoveInfo]:
        """Legal moves a click from ``src`` to ``dst`` may mean: several when the player
        must still choose (which pieces to capture, which square to strike out)."""
        ...

    def square_name(self, text: str) -> str:
        """The canonical name of the square of this game's board that ``text`` names
        (``"f1"`` -> ``"F1"``); :class:`InvalidMove` for anything else (spaces, a leading
        zero, digits that are not ASCII, a square off the board)."""
        ...

    def owns(self, state: Any, square: str) -> bool:
        """Whether ``square`` holds a piece of the side to move (what may be touched)."""
        ...

    def row_fields(self, state: Any) -> dict[str, Any]:
        """Extra battle columns this game keeps up to date (e.g. counts of pieces left)."""
        ...

    def result_numbers(self, state: Any) -> tuple[int, int]:
        """``(first side, second side)``: the two numbers a tournament match result
        records for this game (its result scale, see ``tournament_scale``)."""
        ...

    # Optional: a game whose moves a referee may type in after an over-the-board battle
    # is also a ``MovetextGame``.


@runtime_checkable
class MovetextGame(Protocol):
    """A game whose moves a referee may type in after an over-the-board battle."""

    def parse_movetext(self, text: str) -> tuple[str | None, ...]:
        """The moves of a game record's movetext (``None`` a forfeited turn); raises
        ``games.rules.records.RecordError`` with the move number on text it cannot read."""
        ...


@dataclass(frozen=True)
class MoveScores:
    """A searched position (:meth:`BotGame.analyse`): the moves the search scored (every
    legal move, but a game may leave out captures a search need not tell apart: under
    a capture policy that lets a piece take any subset, only taking all or none), best first, as ``(notation, score)``, with the depth it finished and the nodes it
    visited. A score is in hundredths of the game's points from the side to move's view;
    a finished battle scores beyond :data:`WIN` (:func:`points` reads any score as points).
    """

    scores: tuple[tuple[str, int], ...]
    depth: int
    nodes: int

    @property
    def best(self) -> tuple[str, int]:
        return self.scores[0]

    def score_of(self, notation: str) -> int | None:
        return dict(self.scores).get(notation)


#: How a move is judged by what it cost (:class:`Thresholds`), worst first.
BLUNDER, MISTAKE, INACCURACY = "blunder", "mistake", "inaccuracy"
JUDGEMENTS = (BLUNDER, MISTAKE, INACCURACY)


@dataclass(frozen=True)
class Thresholds:
    """The losses (hundredths of a point, from the mover's view) from which an analysed
    move is an inaccuracy, a mistake and a blunder; each game declares its own
    (:attr:`BotGame.analysis_thresholds`), measured by ``bench/analysis.py``.

    >>> t = Thresholds(inaccuracy=100, mistake=200, blunder=400)
    >>> t.judge(99), t.judge(100), t.judge(399), t.judge(400)
    ('', 'inaccuracy', 'mistake', 'blunder')
    """

    inaccuracy: int
    mistake: int
    blunder: int

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("thresholds must be positive and rise")

    def judge(self, loss: int) -> str:
        """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``""`` for ``loss``."""
        if loss >= self.blunder:
            return BLUNDER
        if loss >= self.mistake:
            return MISTAKE
        if loss >= self.inaccuracy:
            return INACCURACY
        return ""


#: Above any difference in material: a search's score for a finished battle is
#: ``±(WIN + margin)``.
WIN = 100_000


def points(score: int) -> int:
    """A search score as the game's points (a finished battle: its margin).

    >>> points(450), points(-WIN - 300), points(-49)
    (4, -3, 0)
    """
    if score >= WIN:
        score -= WIN
    elif score <= -WIN:
        score += WIN
    return int(score / 100)


@runtime_checkable
class BotGame(Protocol):
    """A game the computer plays (``games.bots.moves``, on the ``bots`` queue). Pure: time is the
    ``clock`` passed in (seconds, e.g. ``time.monotonic``); ``plies_left`` is the number of
    plies before the move limit ends the battle (``None``: no limit). Deterministic for a
    seed whenever the search is bounded by depth rather than by the clock.
    ``analysis_thresholds`` judges the analysed moves (:class:`Thresholds`)."""

    analysis_thresholds: Thresholds

    def bot_move(
        self,
        state: Any,
        *,
        level: int,
        seed: int,
        budget_ms: float,
        clock: Callable[[], float],
        plies_left: int | None = None,
    ) -> str:
        """A legal move (canonical notation) for the side to move, at ``level`` 1-5;
        ``ValueError`` if the side to move has none or the level is out of range."""
        ...

    def analyse(
        self,
        state: Any,
        *,
        budget_ms: float,
        clock: Callable[[], float],
        plies_left: int | None = None,
    ) -> MoveScores:
        """The moves scored by the full-strength search (level 5) within the budget."""
        ...


@dataclass(frozen=True)
class TournamentScale:
    """How a game's ``result_numbers`` count in a tournament match: per side (first,
    second) the largest number and the points each unit is worth, and the English
    labels of the four numbers (battle 1 first, second side; battle 2 first, second side)
    for error messages and for the result entry form. ``wording``: the English texts
    that name the game's sides on tournament pages, by the keys of
    ``tournaments.rules.scales.WORDING_KEYS`` (pairing note, result slip, side statistics).

    ``names`` and ``names_each`` are the words of the stable interfaces (DESIGN.md §8):
    the sides as the results CSV columns and the API keys spell them (``battle1_<name>``,
    ``<name>_won``; ``avg_<name_each>_points``), ``numbers_name`` what a battle's numbers
    are in the API (``<name>_<numbers_name>``). ``options``: the choices of the game's
    rule options that a tournament stores (value, English label), by option name.
    ``game`` and ``name`` are the game's key and English name.

    The games app offers each game's scale to ``tournaments`` (``GamesConfig.game_scales``),
    which reads it as its ``GameScale`` protocol: this is the one scale type."""

    game: str
    name: str
    limits: tuple[int, int]
    weights: tuple[int, int]
    labels: tuple[str, str, str, str]
    form_labels: tuple[str, str, str, str]
    wording: Mapping[str, str] = field(default_factory=dict)
    names: tuple[str, str] = ("first", "second")
    names_each: tuple[str, str] = ("first", "second")
    numbers_name: str = "numbers"
    options: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)


def side_keys(game: Game) -> tuple[str, str]:
    return game.sides[0].key, game.sides[1].key


def other_side(game: Game, side: str) -> str:
    first, second = side_keys(game)
    return second if side == first else first
