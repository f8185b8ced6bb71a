"""The battle page's board, rendered once per position for every spectator.

A spectator's board (no side to command, no square chosen, no capture choice) depends on
the battle's position, its last move and its touched piece, and on the reader's language
(the squares' accessible names): every change to those is a write of the battle's row
that raises its ``clock_version`` (compare-and-set, ``games.battles.store``). So the
rendered board is cached under the battle, its version, its row's last write and the
language, and 2,000
spectators of one battle cost one rendering per move. A player's board (buttons for the
side to move) is never cached.
"""

from __future__ import annotations

from django.utils.translation import get_language

from games.models.battle import Battle


def board_cache_key(battle: Battle, side: str | None, *, selected: str, choice: object) -> str:
    """The fragment cache's key of ``battle``'s board as this reader sees it, or ``""``
    when it is the reader's own (a player's, a chosen square, a capture choice).

    >>> board_cache_key(Battle(pk=7, clock_version=3), None, selected="", choice=None)[:14]
    'battle-7-v3-0-'
    >>> board_cache_key(Battle(pk=7, clock_version=3), "first", selected="", choice=None)
    ''
    """
    if side is not None or selected or choice:
        return ""
    # The row's last write time tells apart two databases' battle 7 at version 3 (a test
    # database made anew, a restored copy) that share one Redis.
    written = int(battle.updated_at.timestamp() * 1_000_000) if battle.updated_at else 0
    return f"battle-{battle.pk}-v{battle.clock_version}-{written}-{get_language()}"
