"""The result of a match in one value: four numbers, two per battle (game).

Terminology and invariants:
- The four numbers mean "battle 1 first side, battle 1 second side, battle 2 first side,
  battle 2 second side"; player A has the first side in battle 1 and the second side in
  battle 2. Their stable field names (database columns, forms, CSV columns) are Thud's
  (``battle1_dwarfs`` ...), the game the tournament manager began with.
- What the numbers count, their limits and how they become points is the game's
  :class:`GameScale`. Thud is built in (survivors, dwarfs x1, trolls x ``TROLL_POINTS``);
  other games register theirs (``register_game``, called by the ``games`` app, which
  this app never imports): Battaglia di Cavalli records each side's points as they are.
- A match between players A and B is two battles with sides swapped: A commands the
  dwarfs in battle 1 and the trolls in battle 2.
- ``Survivors(b1_dwarfs, b1_trolls, b2_dwarfs, b2_trolls)`` counts the pieces left on
  the board at the end of each battle: dwarfs 0–32, trolls 0–8. A ``Survivors`` that
  exists is valid; ``Survivors.parse`` is the one place raw input becomes one.
- Battle points: the dwarf player scores one per surviving dwarf, the troll player
  ``TROLL_POINTS`` per surviving troll. ``points_of("a")`` / ``points_of("b")`` give
  each player's point of view; everything else (differential, outcome) is in
  ``tournaments.scoring``.

Every form, import, page and the scoring use this type instead of repeating the limits.
Below, the Thud-specific wording describes the built-in Thud scale.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

MAX_DWARFS = 32
MAX_TROLLS = 8
TROLL_POINTS = 4
#: No game's result number exceeds this (the database check for games other than Thud).
MAX_RESULT_NUMBER = 9999

# The stable field names (database columns, forms, CSV columns), in order.
FIELDS = ("battle1_dwarfs", "battle1_trolls", "battle2_dwarfs", "battle2_trolls")

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
)


@dataclass(frozen=True)
class GameScale:
    """What the four numbers of one game's match result mean.

    ``limits`` and ``weights`` are per side (first, second): a number is 0..limit and
    is worth ``weight`` points each. ``labels`` name the four fields in error messages,
    ``form_labels`` on the entry form (both in ``FIELDS`` order; English text that is
    translated when shown). ``wording`` holds the texts of ``WORDING_KEYS`` that name the
    game's sides on tournament pages (English; ``words()`` translates them).
    """

    game: str
    name: str
    limits: tuple[int, int]
    weights: tuple[int, int]
    labels: tuple[str, str, str, str]
    form_labels: tuple[str, str, str, str]
    wording: Mapping[str, str] = field(default_factory=dict)

    def limit_of(self, field: str) -> int:
        return self.limits[FIELDS.index(field) % 2]

    def label_of(self, field: str) -> str:
        return str(_(self.labels[FIELDS.index(field)]))

    def form_label_of(self, field: str) -> str:
        return str(_(self.form_labels[FIELDS.index(field)]))

    def words(self) -> dict[str, str]:
        """``wording`` in the active language (templates: ``scale.words.pairing_note``)."""
        return {key: str(_(text)) for key, text in self.wording.items()}


_SCALES: dict[str, GameScale] = {
    THUD: GameScale(
        game=THUD,
        name=gettext_noop("Thud"),
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
        },
    )
}


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


def limit_of(field: str, game: str = THUD) -> int:
    """The largest number ``field`` may hold in ``game``.

    >>> limit_of("battle2_trolls"), limit_of("battle2_dwarfs")
    (8, 32)
    """
    return scale_of(game).limit_of(field)


def field_label(field: str, game: str = THUD) -> str:
    """A readable name for a result field, for error messages."""
    return scale_of(game).label_of(field)


class SurvivorsError(ValueError):
    """Survivor counts that cannot be a result; the message names the field."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Survivors:
    """Dwarfs and trolls surviving in battles 1 and 2 (A has the dwarfs in battle 1).

    >>> s = Survivors(20, 3, 11, 6)
    >>> s.points_of("a"), s.points_of("b")
    ((20, 24), (12, 11))
    """

    battle1_dwarfs: int
    battle1_trolls: int
    battle2_dwarfs: int
    battle2_trolls: int
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
        Survivors(battle1_dwarfs=30, battle1_trolls=2, battle2_dwarfs=12, battle2_trolls=8)
        """
        if isinstance(values, Survivors):
            if values.game != game:
                raise SurvivorsError(
                    _("This result is for another game (%(game)s).") % {"game": values.game}
                )
            return values
        if len(values) != 4:
            raise SurvivorsError(_("Four survivor counts are needed (two per battle)."))
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
        return (self.battle1_dwarfs, self.battle1_trolls, self.battle2_dwarfs, self.battle2_trolls)

    def as_dict(self) -> dict[str, int]:
        return dict(zip(FIELDS, self.as_tuple(), strict=True))

    def battle(self, number: int) -> tuple[int, int]:
        """``(dwarfs, trolls)`` surviving in battle 1 or 2."""
        if number == 1:
            return self.battle1_dwarfs, self.battle1_trolls
        if number == 2:
            return self.battle2_dwarfs, self.battle2_trolls
        raise ValueError(f"a match has battles 1 and 2, not {number}")

    def battle_points(self, number: int) -> tuple[int, int]:
        """``(first side's points, second side's points)`` in battle ``number``."""
        first, second = self.battle(number)
        w_first, w_second = self.scale.weights
        return w_first * first, w_second * second

    def points_of(self, player: str) -> tuple[int, int]:
        """Player ``"a"``'s or ``"b"``'s points in battle 1 and battle 2."""
        (d1, t1), (d2, t2) = self.battle_points(1), self.battle_points(2)
        if player == "a":
            return d1, t2
        if player == "b":
            return t1, d2
        raise ValueError(f"player is 'a' or 'b', not {player!r}")

    @classmethod
    def from_battles(
        cls, battle1: tuple[int, int], battle2: tuple[int, int], *, game: str = THUD
    ) -> Survivors:
        """From ``(first side, second side)`` numbers at the end of each battle (online
        play): Thud's survivors, Cavalli's points."""
        return cls(battle1[0], battle1[1], battle2[0], battle2[1], game=game)
