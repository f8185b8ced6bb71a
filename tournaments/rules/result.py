"""The result of a match in one value: four numbers, two per battle (game).

Terminology and invariants:
- The four numbers mean "battle 1 first side, battle 1 second side, battle 2 first side,
  battle 2 second side" (``FIELDS``: ``battle1_first`` ...); the first side is the one
  that moves first. A match between players A and B is two battles with sides swapped:
  A has the first side in battle 1 and the second side in battle 2.
- What the numbers count, their limits, how they become points and the words that name
  the sides are the game's scale (``tournaments.rules.scales``).
- A ``MatchResult`` that exists is valid for its game; ``MatchResult.parse`` is the one place
  raw input becomes one. In Thud the numbers are the pieces that survive each battle; in
  Battaglia di Cavalli the captures (the game's scale says).
- Battle points: each side scores ``weight`` points per unit of its number.
  ``points_of("a")`` / ``points_of("b")`` give each player's point of view; everything
  else (differential, outcome) is in ``tournaments.standings.scoring``.
- The stable interfaces (results CSV columns, API keys; DESIGN.md §8) spell the sides
  with the game's ``names``: ``scales.columns`` and ``scales.api_key``.

Every form, import, page and the scoring use this type instead of repeating the limits.
Pure: a refused value raises ``MatchResultError`` with an English message and its values
(``tournaments.rules.messages``), which the caller translates (``models.wording.say``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tournaments.rules.messages import RuleError, _
from tournaments.rules.scales import FIELDS, GameScale, scale_of
from tournaments.rules.scales import limit_of as scale_limit


class MatchResultError(RuleError):
    """Numbers that cannot be a result; the message names the field (``field``), by its
    label (the value ``field``, an English text translated with the message)."""


def _label(scale: GameScale, name: str) -> str:
    """``name``'s English label in error messages (translated with the message)."""
    return scale.labels[FIELDS.index(name)]


@dataclass(frozen=True)
class MatchResult:
    """Each side's number in battles 1 and 2 (A has the first side in battle 1).

    >>> s = MatchResult(20, 3, 11, 6, game="cavalli")
    >>> s.points_of("a"), s.points_of("b")
    ((20, 6), (3, 11))
    """

    battle1_first: int
    battle1_second: int
    battle2_first: int
    battle2_second: int
    #: The game whose scale the numbers follow (a key of the registered ``GameScale``s).
    game: str = field(kw_only=True, repr=False)

    def __post_init__(self) -> None:
        try:
            scale = scale_of(self.game)
        except KeyError:
            raise MatchResultError(_("Unknown game %(game)r."), {"game": self.game}) from None
        for name in FIELDS:
            value = getattr(self, name)
            # bool is an int subclass; a True survivor count is a caller bug.
            if isinstance(value, bool) or not isinstance(value, int):
                raise MatchResultError(
                    _("%(field)s must be a whole number, not %(value)r."),
                    {"field": _label(scale, name), "value": value},
                    field=name,
                    texts=("field",),
                )
            limit = scale_limit(scale, name)
            if not 0 <= value <= limit:
                raise MatchResultError(
                    _("%(field)s must be between 0 and %(limit)d, not %(value)d."),
                    {"field": _label(scale, name), "limit": limit, "value": value},
                    field=name,
                    texts=("field",),
                )

    @property
    def scale(self) -> GameScale:
        return scale_of(self.game)

    @classmethod
    def parse(cls, values: Sequence[object] | MatchResult, *, game: str) -> MatchResult:
        """Build from four raw values (form strings, CSV cells, ints) of ``game``.

        >>> MatchResult.parse(["30", 2, " 12", "8"], game="thud")
        MatchResult(battle1_first=30, battle1_second=2, battle2_first=12, battle2_second=8)
        """
        if isinstance(values, MatchResult):
            if values.game != game:
                raise MatchResultError(
                    _("This result is for another game (%(game)s)."), {"game": values.game}
                )
            return values
        if len(values) != 4:
            raise MatchResultError(_("Four numbers are needed (two per battle)."))
        numbers = []
        for name, raw in zip(FIELDS, values, strict=True):
            if isinstance(raw, int) and not isinstance(raw, bool):
                numbers.append(raw)
                continue
            text = str(raw).strip()
            # int() accepts "1_000" and non-ASCII digits; a result number is plain 0-9.
            if not (text.isascii() and text.isdigit()) or len(text) > 4:
                raise MatchResultError(
                    _("%(field)s must be a whole number, not %(value)r."),
                    {"field": _label(scale_of(game), name), "value": raw},
                    field=name,
                    texts=("field",),
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
        cls, battle1: tuple[int, int], battle2: tuple[int, int], *, game: str
    ) -> MatchResult:
        """From ``(first side, second side)`` numbers at the end of each battle (online
        play), as each game's ``result_numbers`` gives them."""
        return cls(battle1[0], battle1[1], battle2[0], battle2[1], game=game)
