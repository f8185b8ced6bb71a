"""The four numbers of a match result as an entry asks for them: each field's label (the
game's words, and the players' names when the match is known) and its limit. The web's
result forms and the games' over-the-board survivors form build their fields from these.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from tournaments.models.rounds import Match
from tournaments.models.wording import form_label_of, label_of
from tournaments.rules.scales import FIELDS, limit_of, scale_of

# Whose number each field is, in ``FIELDS`` order: A has the first side in battle 1 and
# the second in battle 2, so battle 1's second side and battle 2's first are B's.
FIELD_PLAYER = (0, 1, 1, 0)


@dataclass(frozen=True)
class ResultField:
    name: str  # one of ``FIELDS``
    label: str  # translated
    limit: int  # the largest number it may hold (the least is 0)


def named_label(game: str, field: str, names: tuple[str, str] | None) -> str:
    """The field's label: "Battle 1 <the game's count> (Alice)" with the players' names,
    else the game's "(A)"/"(B)" label (a form without a match, as the live preview's)."""
    scale = scale_of(game)
    if names is None:
        return form_label_of(scale, field)
    name = names[FIELD_PLAYER[FIELDS.index(field)]]
    return gettext("%(numbers)s (%(name)s)") % {"numbers": label_of(scale, field), "name": name}


def result_fields(game: str, names: tuple[str, str] | None = None) -> list[ResultField]:
    """The four fields of ``game``'s result, in ``FIELDS`` order."""
    scale = scale_of(game)
    return [
        ResultField(name, named_label(game, name, names), limit_of(scale, name)) for name in FIELDS
    ]


def match_names(match: Match) -> tuple[str, str]:
    """A's and B's names, for labels (a bye has no B: never shown a result form)."""
    b = match.player_b.player.name if match.player_b is not None else ""
    return match.player_a.player.name, b
