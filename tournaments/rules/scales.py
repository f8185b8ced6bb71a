"""The games a tournament may play, and what the four numbers of a match result mean in each.

Terminology and invariants:
- A game's **scale** (:class:`GameScale`) says what its result numbers count: per side
  (first, second) the largest number and the points each unit is worth, the English
  labels of the four numbers (``FIELDS`` order), the texts of ``WORDING_KEYS`` that name
  its sides on tournament pages, and the words of the stable interfaces (``names``,
  ``names_each``, ``numbers_name``; DESIGN.md §8).
- This app knows no game and never imports ``games``. The games app offers its games'
  ``TournamentScale`` (``GameScale`` is the protocol they satisfy, not a copy) through
  ``tournaments.contributions``, before any model is defined, so the model choices and the
  database check of the result numbers see them.
- Pure (no Django): what spells a scale is a function here (``limit_of``, ``columns``,
  ``api_key``); what translates one is on the Django side (``tournaments.models.wording``:
  ``label_of``, ``words``, the model choices). The games declare English text and never
  import Django's translation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol, runtime_checkable

#: No game's result number exceeds this (the database check for unregistered games).
MAX_RESULT_NUMBER = 9999

# The field names (database columns, forms), in order.
FIELDS = ("battle1_first", "battle1_second", "battle2_first", "battle2_second")

#: The texts every game's scale names for the tournament pages (``GameScale.wording``):
#: English, marked for translation by whoever declares them, translated when shown.
WORDING_KEYS = (
    "pairing_note",  # the public pairings and their PDF: who has which side when
    "player_a_heading",  # the organiser's round table: player A's column
    "player_a_column",  # the printed pairings (and their PDF): both players' columns
    "player_b_column",
    "battle_1",  # the result slip's rows
    "battle_2",
    "first_side",  # the result slip's player columns (the first side moves first)
    "second_side",
    "first_numbers",  # the result slip's columns to write the numbers in, with limits
    "second_numbers",
    "first_won",  # side statistics of all battles
    "second_won",
    "won_as_first",  # side statistics of one player
    "won_as_second",
    "average_first",
    "average_second",
    "points_rule",  # how a battle is won, under the side statistics
    "first_letter",  # the crosstable: the side a player had in battle 1, one letter
    "second_letter",
    "playoff_note",  # the organiser's playoff choice: the default sides
    "playoff_choice",  # ... one choice: %(high)s (seed %(seed)d) takes the second side
)


class GameScale(Protocol):
    """What the four numbers of one game's match result mean (``games.rules.interface``'s
    ``TournamentScale`` satisfies it).

    ``limits`` and ``weights`` are per side (first, second): a number is 0..limit and is
    worth ``weight`` points each. ``labels`` name the four fields in error messages,
    ``form_labels`` on the entry form (both in ``FIELDS`` order; English). ``wording``
    holds the texts of ``WORDING_KEYS``; ``names``, ``names_each`` and ``numbers_name``
    spell the sides in the stable interfaces; ``options`` the choices of the game's rule
    options (value, English label), by option name.
    """

    @property
    def game(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def limits(self) -> tuple[int, int]: ...
    @property
    def weights(self) -> tuple[int, int]: ...
    @property
    def labels(self) -> tuple[str, str, str, str]: ...
    @property
    def form_labels(self) -> tuple[str, str, str, str]: ...
    @property
    def wording(self) -> Mapping[str, str]: ...
    @property
    def names(self) -> tuple[str, str]: ...
    @property
    def names_each(self) -> tuple[str, str]: ...
    @property
    def numbers_name(self) -> str: ...
    @property
    def options(self) -> Mapping[str, tuple[tuple[str, str], ...]]: ...


def check_scale(scale: GameScale) -> None:
    """Refuse a scale whose limits do not fit the database or whose wording is short."""
    if max(scale.limits) > MAX_RESULT_NUMBER or min(scale.limits) < 0:
        raise ValueError(f"limits of {scale.game} outside 0..{MAX_RESULT_NUMBER}")
    if missing := set(WORDING_KEYS) - set(scale.wording):
        raise ValueError(f"wording of {scale.game} lacks {sorted(missing)}")


@runtime_checkable
class OffersGameScales(Protocol):
    """An app config that offers game scales (``GamesConfig``): read before any model is
    defined (``TournamentsConfig.import_models``; see ``tournaments.contributions``)."""

    game_scales: tuple[GameScale, ...]


#: The offered scales, by game key, in the order they were offered (``register``).
_registered: dict[str, GameScale] = {}


def register(scales: Iterable[GameScale]) -> None:
    """Offer ``scales`` (``TournamentsConfig.import_models``, from the app configs that
    offer them); a game offered again replaces its scale."""
    for scale in scales:
        check_scale(scale)
        _registered[scale.game] = scale


def registered() -> Mapping[str, GameScale]:
    """Every offered scale, by game key, in the order they were offered."""
    return _registered


def scale_of(game: str) -> GameScale:
    """The result scale of ``game``; ``KeyError`` for a game no app offers."""
    return registered()[game]


def limit_of(scale: GameScale, field: str) -> int:
    """The largest number ``field`` may hold."""
    return scale.limits[FIELDS.index(field) % 2]


def columns(scale: GameScale) -> tuple[str, str, str, str]:
    """The four numbers' CSV columns, in ``FIELDS`` order (``battle1_<name>`` ...)."""
    first, second = scale.names
    return (f"battle1_{first}", f"battle1_{second}", f"battle2_{first}", f"battle2_{second}")


def api_key(scale: GameScale, pattern: str, side: int) -> str:
    """An API key: ``pattern`` with ``{name}`` (plural), ``{each}`` (singular) and
    ``{numbers}`` filled in for side 0 (first) or 1 (second)."""
    return pattern.format(
        name=scale.names[side], each=scale.names_each[side], numbers=scale.numbers_name
    )
