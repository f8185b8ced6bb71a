"""Moves of an over-the-board battle, typed in by a referee after it ended.

Only when the tournament asks for it (``Tournament.record_otb_moves``). The moves are
checked by replaying them through the engine under the battle's capture policy; the
first bad one is reported by its move number and nothing is saved. Saved moves replace
the battle's move rows (the referee clock's "moved" presses carry no notation), so the
game record and the replay show them. The result stays the confirmed survivors.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from .battles import BattleError
from .models import Battle, Move
from .records import RecordError, parse_movetext, replay
from .thud import format_square
from .thud.notation import parse_move_text


def can_enter_moves(battle: Battle) -> bool:
    """Whether this battle takes typed-in moves (over the board, finished, option on)."""
    return (
        battle.mode == Battle.Mode.OTB
        and battle.is_finished
        and battle.match.round.tournament.record_otb_moves
    )


def enter_moves(battle: Battle, *, text: str, now: datetime) -> int:
    """Check and store ``text`` as the moves of ``battle``; returns the number of plies.

    Raises :class:`~games.battles.BattleError` (a message for the referee) on any
    problem, having changed nothing.
    """
    if not can_enter_moves(battle):
        raise BattleError(
            _(
                "Moves can be entered only for a finished battle played over the board, "
                "in a tournament that records them."
            )
        )
    try:
        moves = parse_movetext(text)
        if not moves:
            raise BattleError(_("Enter at least one move."))
        replay(moves, battle.capture_policy)
    except RecordError as exc:
        if exc.move_number is None:
            raise BattleError(_("The moves cannot be read.")) from exc
        raise BattleError(
            _("Move %(number)d cannot be read or is not legal there; nothing was saved.")
            % {"number": exc.move_number}
        ) from exc
    if battle.max_plies and len(moves) > battle.max_plies:
        raise BattleError(
            _("This battle allows at most %(limit)d plies; %(count)d were entered.")
            % {"limit": battle.max_plies, "count": len(moves)}
        )
    rows = []
    for ply, notation in enumerate(moves):
        side = "dwarf" if ply % 2 == 0 else "troll"
        if notation is None:
            kind, captures = Move.Kind.FORFEIT, []
        else:
            move = parse_move_text(notation)
            kind, captures = move.kind, [format_square(sq) for sq in move.captures]
        rows.append(
            Move(
                battle=battle,
                ply=ply,
                side=side,
                notation=notation or "",
                kind=kind,
                captures=captures,
                submitted_at=now,
                clock_version_before=battle.clock_version,
            )
        )
    with transaction.atomic():
        Battle.objects.select_for_update().filter(pk=battle.pk).get()
        Move.objects.filter(battle=battle).delete()
        Move.objects.bulk_create(rows)
    return len(rows)
