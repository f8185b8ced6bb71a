"""The result of a match in one value: the survivors of both battles.

Terminology and invariants:
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
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields

from django.utils.translation import gettext as _

MAX_DWARFS = 32
MAX_TROLLS = 8
TROLL_POINTS = 4

# The stable field names (database columns, forms, CSV columns), in order.
FIELDS = ("battle1_dwarfs", "battle1_trolls", "battle2_dwarfs", "battle2_trolls")


def limit_of(field: str) -> int:
    """The largest survivor count ``field`` may hold.

    >>> limit_of("battle2_trolls")
    8
    """
    return MAX_DWARFS if field.endswith("dwarfs") else MAX_TROLLS


def field_label(field: str) -> str:
    """A readable name for a survivor field, for error messages."""
    labels = {
        "battle1_dwarfs": _("Battle 1 surviving dwarfs"),
        "battle1_trolls": _("Battle 1 surviving trolls"),
        "battle2_dwarfs": _("Battle 2 surviving dwarfs"),
        "battle2_trolls": _("Battle 2 surviving trolls"),
    }
    return labels[field]


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

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            # bool is an int subclass; a True survivor count is a caller bug.
            if isinstance(value, bool) or not isinstance(value, int):
                raise SurvivorsError(
                    _("%(field)s must be a whole number, not %(value)r.")
                    % {"field": field_label(f.name), "value": value},
                    f.name,
                )
            limit = limit_of(f.name)
            if not 0 <= value <= limit:
                raise SurvivorsError(
                    _("%(field)s must be between 0 and %(limit)d, not %(value)d.")
                    % {"field": field_label(f.name), "limit": limit, "value": value},
                    f.name,
                )

    @classmethod
    def parse(cls, values: Sequence[object] | Survivors) -> Survivors:
        """Build from four raw values (form strings, CSV cells, ints).

        >>> Survivors.parse(["30", 2, " 12", "8"])
        Survivors(battle1_dwarfs=30, battle1_trolls=2, battle2_dwarfs=12, battle2_trolls=8)
        """
        if isinstance(values, Survivors):
            return values
        if len(values) != 4:
            raise SurvivorsError(_("Four survivor counts are needed (two per battle)."))
        numbers = []
        for field, raw in zip(FIELDS, values, strict=True):
            if isinstance(raw, int) and not isinstance(raw, bool):
                numbers.append(raw)
                continue
            text = str(raw).strip()
            # int() accepts "1_000" and non-ASCII digits; a survivor count is plain 0-9.
            if not (text.isascii() and text.isdigit()) or len(text) > 3:
                raise SurvivorsError(
                    _("%(field)s must be a whole number, not %(value)r.")
                    % {"field": field_label(field), "value": raw},
                    field,
                )
            numbers.append(int(text))
        return cls(*numbers)

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
        """``(dwarf player's points, troll player's points)`` in battle ``number``."""
        dwarfs, trolls = self.battle(number)
        return dwarfs, TROLL_POINTS * trolls

    def points_of(self, player: str) -> tuple[int, int]:
        """Player ``"a"``'s or ``"b"``'s points in battle 1 and battle 2."""
        (d1, t1), (d2, t2) = self.battle_points(1), self.battle_points(2)
        if player == "a":
            return d1, t2
        if player == "b":
            return t1, d2
        raise ValueError(f"player is 'a' or 'b', not {player!r}")

    @classmethod
    def from_battles(cls, battle1: tuple[int, int], battle2: tuple[int, int]) -> Survivors:
        """From ``(dwarfs, trolls)`` left at the end of each battle (online play)."""
        return cls(battle1[0], battle1[1], battle2[0], battle2[1])
