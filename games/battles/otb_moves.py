"""Moves of an over-the-board battle, typed in by a referee after it ended.

Only when the tournament asks for it (``Tournament.record_otb_moves``) and the game can
read a record's movetext (``parse_movetext``, see :mod:`games.rules.interface`). The moves are
checked by playing them through the game with the battle's rules; the first bad one is
reported by its move number and nothing is saved. Saved moves replace
the battle's move rows (the referee clock's "moved" presses carry no notation), so the
game record and the replay show them. The result stays the confirmed one.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from games.battles.errors import BattleError
from games.models.battle import Battle
from games.models.history import Move
from games.rules.interface import InvalidMove, MovetextGame
from games.rules.records import RecordError, move_number


def can_enter_moves(battle: Battle) -> bool:
    """Whether this battle takes typed-in moves (over the board, finished, option on)."""
    return (
        battle.mode == Battle.Mode.OTB
        and battle.is_finished
        and battle.match is not None
        and battle.match.round.tournament.record_otb_moves
        and hasattr(battle.rules, "parse_movetext")
    )


def enter_moves(battle: Battle, *, text: str, now: datetime) -> int:
    """Check and store ``text`` as the moves of ``battle``; returns the number of plies.

    Raises :class:`~games.battles.errors.BattleError` (a message for the referee) on any
    problem, having changed nothing.
    """
    game = battle.rules
    if not can_enter_moves(battle) or not isinstance(game, MovetextGame):
        raise BattleError(
            _(
                "Moves can be entered only for a finished battle played over the board, "
                "in a tournament that records them."
            )
        )
    try:
        moves = game.parse_movetext(text)
        if not moves:
            raise BattleError(_("Enter at least one move."))
        rows = _rows(battle, game, moves, now)
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
    with transaction.atomic():
        Battle.objects.select_for_update().filter(pk=battle.pk).get()
        Move.objects.filter(battle=battle).delete()
        Move.objects.bulk_create(rows)
    return len(rows)


def _rows(battle: Battle, game, moves, now: datetime) -> list[Move]:
    """The move rows of ``moves`` played from the game's start; :class:`RecordError`
    names the first move that is not legal where it is played."""
    state = game.initial_state({"board_seed": battle.board_seed})
    rows = []
    for ply, notation in enumerate(moves):
        side = game.side_to_move(state)
        if notation is None:
            if game.outcome(state) is not None:
                raise RecordError("a turn forfeited after the end", move_number(ply))
            state, kind, captures = game.pass_turn(state), Move.Kind.FORFEIT, []
        else:
            try:
                state, info = game.apply(state, notation)
            except InvalidMove as exc:
                raise RecordError(str(exc), move_number(ply)) from exc
            notation, kind, captures = info.notation, info.kind, list(info.captures)
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
    return rows
