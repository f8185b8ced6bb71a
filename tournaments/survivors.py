"""The result of a match in one value: four numbers, two per battle (game).

Terminology and invariants:
- The four numbers mean "battle 1 first side, battle 1 second side, battle 2 first side,
  battle 2 second side" (``FIELDS``: ``battle1_first`` ...); the first side is the one
  that moves first. A match between players A and B is two battles with sides swapped:
  A has the first side in battle 1 and the second side in battle 2.
- What the numbers count, their limits, how they become points and the words that name
  the sides are the game's :class:`GameScale`. This app knows no game: each game declares
  its scale in its own package and the ``games`` app registers it (``register_game``,
  when its app config is imported, before any model), which this app never imports.
- A ``Survivors`` that exists is valid for its game; ``Survivors.parse`` is the one place
  raw input becomes one. (The name is the first game's: its numbers are the pieces that
  survive a battle.)
- Battle points: each side scores ``weight`` points per unit of its number.
  ``points_of("a")`` / ``points_of("b")`` give each player's point of view; everything
  else (differential, outcome) is in ``tournaments.scoring``.
- The stable interfaces (results CSV columns, API keys; DESIGN.md §8) spell the sides
  with the game's ``names``: ``GameScale.columns`` and ``GameScale.key``.

Every form, import, page and the scoring use this type instead of repeating the limits.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from django.db import models
from django.utils.translation import gettext as _

#: No game's result number exceeds this (the database check for unregistered games).
MAX_RESULT_NUMBER = 9999

# The field names (database columns, forms), in order.
FIELDS = ("battle1_first", "battle1_second", "battle2_first", "battle2_second")

#: The game a tournament plays unless it says (a key of ``games.registry``).
THUD = "thud"

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


@dataclass(frozen=True)
class GameScale:
    """What the four numbers of one game's match result mean.

    ``limits`` and ``weights`` are per side (first, second): a number is 0..limit and
    is worth ``weight`` points each. ``labels`` name the four fields in error messages,
    ``form_labels`` on the entry form (both in ``FIELDS`` order; English text that is
    translated when shown). ``wording`` holds the texts of ``WORDING_KEYS`` that name the
    game's sides on tournament pages (English; ``words()`` translates them). ``names``,
    ``names_each`` and ``numbers_name`` spell the sides in the stable interfaces
    (``columns``, ``key``); ``options`` the choices of the game's rule options.
    """

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

    def limit_of(self, field: str) -> int:
        return self.limits[FIELDS.index(field) % 2]

    def label_of(self, field: str) -> str:
        return str(_(self.labels[FIELDS.index(field)]))

    def form_label_of(self, field: str) -> str:
        return str(_(self.form_labels[FIELDS.index(field)]))

    def words(self) -> dict[str, str]:
        """``wording`` in the active language (templates: ``scale.words.pairing_note``)."""
        return {key: str(_(text)) for key, text in self.wording.items()}

    def columns(self) -> tuple[str, str, str, str]:
        """The four numbers' CSV columns, in ``FIELDS`` order (``battle1_<name>`` ...)."""
        first, second = self.names
        return (f"battle1_{first}", f"battle1_{second}", f"battle2_{first}", f"battle2_{second}")

    def key(self, pattern: str, side: int) -> str:
        """An API key: ``pattern`` with ``{name}`` (plural), ``{each}`` (singular) and
        ``{numbers}`` filled in for side 0 (first) or 1 (second)."""
        return pattern.format(
            name=self.names[side], each=self.names_each[side], numbers=self.numbers_name
        )


_SCALES: dict[str, GameScale] = {}


def register_game(scale: GameScale) -> None:
    """Make ``scale`` the result scale of its game (the games app does this at start-up)."""
    if max(scale.limits) > MAX_RESULT_NUMBER or min(scale.limits) < 0:
        raise ValueError(f"limits of {scale.game} outside 0..{MAX_RESULT_NUMBER}")
    if missing := set(WORDING_KEYS) - set(scale.wording):
        raise ValueError(f"wording of {scale.game} lacks {sorted(missing)}")
    _SCALES[scale.game] = scale


def scale_of(game: str) -> GameScale:
    """The result scale of ``game``; ``KeyError`` for a game nobody registered."""
    return _SCALES[game]


def game_choices() -> list[tuple[str, str]]:
    """``(key, translated name)`` of every game a tournament may play (model choices)."""
    return [(key, _(scale.name)) for key, scale in _SCALES.items()]


def option_choices(option: str) -> list[tuple[str, str]]:
    """``(value, translated label)`` of a rule option's choices (model choices), from the
    games that have the option (Thud's capture policy)."""
    return [
        (value, _(label))
        for scale in _SCALES.values()
        for value, label in scale.options.get(option, ())
    ]


def capture_policy_choices() -> list[tuple[str, str]]:
    return option_choices("capture_policy")


def range_check(name: str) -> models.CheckConstraint:
    """The database's own check of the four numbers: each registered game's limits for
    its rows, ``MAX_RESULT_NUMBER`` for any other game. Built from the scales registered
    when the model is defined (the games app registers them first), so a new game or a
    changed limit shows up in ``makemigrations``."""
    condition = ~models.Q(game__in=sorted(_SCALES)) & models.Q(
        **{f"{field}__lte": MAX_RESULT_NUMBER for field in FIELDS}
    )
    for key in sorted(_SCALES, reverse=True):
        limits = {f"{field}__lte": _SCALES[key].limit_of(field) for field in FIELDS}
        condition = models.Q(game=key, **limits) | condition
    return models.CheckConstraint(condition=condition, name=name)


def limit_of(field: str, game: str = THUD) -> int:
    """The largest number ``field`` may hold in ``game``.

    >>> limit_of("battle2_second") < limit_of("battle2_first")
    True
    """
    return scale_of(game).limit_of(field)


def field_label(field: str, game: str = THUD) -> str:
    """A readable name for a result field, for error messages."""
    return scale_of(game).label_of(field)


class SurvivorsError(ValueError):
    """Numbers that cannot be a result; the message names the field."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Survivors:
    """Each side's number in battles 1 and 2 (A has the first side in battle 1).

    >>> s = Survivors(20, 3, 11, 6, game="cavalli")
    >>> s.points_of("a"), s.points_of("b")
    ((20, 6), (3, 11))
    """

    battle1_first: int
    battle1_second: int
    battle2_first: int
    battle2_second: int
    #: The game whose scale the numbers follow (``GameScale``); Thud unless said.
    game: str = field(default=THUD, kw_only=True, repr=False)

    def __post_init__(self) -> None:
        try:
            scale = scale_of(self.game)
        except KeyError:
            raise SurvivorsError(_("Unknown game %(game)r.") % {"game": self.game}) from None
        for name in FIELDS:
            value = getattr(self, name)
            # bool is an int subclass; a True survivor count is a caller bug.
            if isinstance(value, bool) or not isinstance(value, int):
                raise SurvivorsError(
                    _("%(field)s must be a whole number, not %(value)r.")
                    % {"field": scale.label_of(name), "value": value},
                    name,
                )
            limit = scale.limit_of(name)
            if not 0 <= value <= limit:
                raise SurvivorsError(
                    _("%(field)s must be between 0 and %(limit)d, not %(value)d.")
                    % {"field": scale.label_of(name), "limit": limit, "value": value},
                    name,
                )

    @property
    def scale(self) -> GameScale:
        return scale_of(self.game)

    @classmethod
    def parse(cls, values: Sequence[object] | Survivors, *, game: str = THUD) -> Survivors:
        """Build from four raw values (form strings, CSV cells, ints) of ``game``.

        >>> Survivors.parse(["30", 2, " 12", "8"])
        Survivors(battle1_first=30, battle1_second=2, battle2_first=12, battle2_second=8)
        """
        if isinstance(values, Survivors):
            if values.game != game:
                raise SurvivorsError(
                    _("This result is for another game (%(game)s).") % {"game": values.game}
                )
            return values
        if len(values) != 4:
            raise SurvivorsError(_("Four numbers are needed (two per battle)."))
        numbers = []
        for name, raw in zip(FIELDS, values, strict=True):
            if isinstance(raw, int) and not isinstance(raw, bool):
                numbers.append(raw)
                continue
            text = str(raw).strip()
            # int() accepts "1_000" and non-ASCII digits; a result number is plain 0-9.
            if not (text.isascii() and text.isdigit()) or len(text) > 4:
                raise SurvivorsError(
                    _("%(field)s must be a whole number, not %(value)r.")
                    % {"field": field_label(name, game), "value": raw},
                    name,
                )
            numbers.append(int(text))
        return cls(*numbers, game=game)

    def __iter__(self) -> Iterator[int]:
        return iter(self.as_tuple())

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.battle1_first, self.battle1_second, self.battle2_first, self.battle2_second)

    def as_dict(self) -> dict[str, int]:
        return dict(zip(FIELDS, self.as_tuple(), strict=True))

    def battle(self, number: int) -> tuple[int, int]:
        """``(first side, second side)`` numbers of battle 1 or 2."""
        if number == 1:
            return self.battle1_first, self.battle1_second
        if number == 2:
            return self.battle2_first, self.battle2_second
        raise ValueError(f"a match has battles 1 and 2, not {number}")

    def battle_points(self, number: int) -> tuple[int, int]:
        """``(first side's points, second side's points)`` in battle ``number``."""
        first, second = self.battle(number)
        w_first, w_second = self.scale.weights
        return w_first * first, w_second * second

    def points_of(self, player: str) -> tuple[int, int]:
        """Player ``"a"``'s or ``"b"``'s points in battle 1 and battle 2."""
        (f1, s1), (f2, s2) = self.battle_points(1), self.battle_points(2)
        if player == "a":
            return f1, s2
        if player == "b":
            return s1, f2
        raise ValueError(f"player is 'a' or 'b', not {player!r}")

    @classmethod
    def from_battles(
        cls, battle1: tuple[int, int], battle2: tuple[int, int], *, game: str = THUD
    ) -> Survivors:
        """From ``(first side, second side)`` numbers at the end of each battle (online
        play), as each game's ``result_numbers`` gives them."""
        return cls(battle1[0], battle1[1], battle2[0], battle2[1], game=game)
