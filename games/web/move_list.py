"""A battle's move list as the battle page shows it (``presenters.battle_context``), read
on every view of the page by a query compiled once per process (``thud_site.prepared``)."""

from __future__ import annotations

from games.models.battle import Battle
from games.models.history import Move
from thud_site.prepared import ID_STAND_INS, Prepared

_MOVES = Prepared(lambda battle_id: Move.objects.filter(battle_id=battle_id), ID_STAND_INS[0])


def stored_moves(battle: Battle) -> list[Move]:
    """``battle.moves.all()``, each move knowing its battle (``side_display``), by a
    query compiled once."""
    moves = _MOVES.all(battle.pk)
    for m in moves:
        Move.battle.field.set_cached_value(m, battle)
    return moves
