"""Play: a player's moves and touches, ending a battle by agreement (offers), and
resigning.

Each action settles the battle first, then refuses anything out of turn or stale
(``_checked``), then writes with the compare-and-set of ``store.write``.

An offer to end the battle (``end_offered_by``) stands until the opponent accepts or
declines it, its player withdraws it (``games.battles.agreements``) or the battle ends
(``finishing.finished`` clears it): a move does not take it back.

Resigning (a casual battle's, against a person or the computer; a tournament has no
setting for it, so its battles are ended by agreement or a referee): the battle ends at
once with the board and its score as they stand, and the resigning side loses it (the
one rule, ``tournaments.for_games.battle_winner``; in a casual match it loses the match
too, ``match_decision``). The rules of Thud have no resignation (reference §8); this is
the site's, scored like a loss on time.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.battles import finishing, store
from games.battles.errors import BattleError, InvalidInput, NotAllowed, StaleVersion
from games.battles.settle import settle
from games.events import signals
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from games.rules.interface import InvalidMove

REASON_AGREEMENT = "agreement"
REASON_RESIGNED = clock.REASON_RESIGNED


def _checked(
    battle_id: int, *, side: str | None, version: int, now: datetime, loaded: Battle | None
) -> Battle:
    """Settle first, then refuse anything out of turn or stale. ``settle`` returns the
    battle as stored after it (loaded afresh when another writer came first)."""
    battle = settle(battle_id, via=ClockEvent.Via.READ, now=now, loaded=loaded)
    if battle.status == Battle.Status.FINISHED:
        raise NotAllowed(_("This battle is over."))
    if battle.status != Battle.Status.RUNNING:
        raise NotAllowed(_("The clock is stopped."))
    if side is not None and side != battle.side_to_move:
        raise NotAllowed(_("It is not your turn."))
    if version != battle.clock_version:
        raise StaleVersion(
            _(
                "The battle changed meanwhile (a move or the clock); "
                "look at the board and try again."
            )
        )
    if not clock.move_in_time(battle.clock_state, now):
        raise NotAllowed(_("Too late: your time for this turn ran out."))
    return battle


def submit_move(
    battle_id: int,
    *,
    side: str,
    version: int,
    notation: str = "",
    now: datetime,
    loaded: Battle | None = None,
) -> Battle:
    """Apply one move by ``side``. For over-the-board battles ``notation`` may be empty.
    ``loaded``: the battle as the request has just read it (``settle``'s)."""
    try:
        battle = _checked(battle_id, side=side, version=version, now=now, loaded=loaded)
    except BattleError:
        # A move submitted twice (same version, same text) was applied once: say so quietly.
        # (An empty notation: the page could not rebuild the move from the new position.)
        done = Move.objects.filter(
            battle_id=battle_id, clock_version_before=version, side=side
        ).exclude(kind="forfeit")
        if notation:
            done = done.filter(notation=notation)
        if done.exists():
            return store.load(battle_id)
        raise
    with transaction.atomic():
        new = clock.after_move(battle.clock_state, now)
        kind, captures, extra, text = Move.Kind.OTB, [], {}, notation
        if battle.mode == Battle.Mode.ONLINE:
            info, position = _play(battle, notation)
            text, kind, captures = info.notation, info.kind, list(info.captures)
            extra = {
                "board": battle.rules.serialise(position),
                **battle.rules.row_fields(position),
            }
            new = finishing.check_end(battle, new, position)
        ply = battle.ply
        if not store.write(battle, new, now=now, **extra):
            raise StaleVersion(_("The battle changed meanwhile; your move was not applied."))
        Move.objects.create(
            battle=battle,
            ply=ply,
            side=side,
            notation=text,
            kind=kind,
            captures=captures,
            submitted_at=now,
            clock_version_before=version,
        )
        if new.status == clock.FINISHED:
            finishing.finished(battle, now=now)
    return battle


def _play(battle: Battle, notation: str):
    game = battle.rules
    try:
        position, info = game.apply(game.deserialise(battle.board), notation)
    except InvalidMove as exc:
        raise InvalidInput(_("That move is not legal here.")) from exc
    moved_from = info.extra.get("from")
    if battle.touched_square and moved_from and moved_from != battle.touched_square:
        raise NotAllowed(
            _("You touched %(square)s: you must move that piece.")
            % {"square": battle.touched_square}
        )
    return info, position


def board_square(battle: Battle, text: str) -> str:
    """The canonical name of the square of the battle's board that ``text`` names
    (``f1`` -> ``F1``, as the move parser reads it); ``InvalidInput`` for anything else."""
    try:
        return battle.rules.square_name(text)
    except InvalidMove:
        raise InvalidInput(
            _("“%(square)s” is not a square of this board.") % {"square": text[:12]}
        ) from None


def touch(
    battle_id: int,
    *,
    side: str,
    version: int,
    square: str = "*",
    now: datetime,
    loaded: Battle | None = None,
) -> Battle:
    """Touch a piece (the touch rule ends think at once). ``*`` = over-the-board touch.
    ``loaded``: the battle as the request has just read it (``settle``'s)."""
    battle = _checked(battle_id, side=side, version=version, now=now, loaded=loaded)
    if battle.mode == Battle.Mode.ONLINE:
        game = battle.rules
        square = board_square(battle, square)  # stored as the game names it
        if not game.owns(game.deserialise(battle.board), square):
            raise InvalidInput(_("Touch one of your own pieces."))
    if battle.touched_square == square:
        return battle
    try:
        new = clock.touch(battle.clock_state, now, square)
    except clock.ClockError as exc:
        raise NotAllowed(
            _("You have already touched %(square)s.") % {"square": battle.touched_square}
        ) from exc
    with transaction.atomic():
        if not store.write(battle, new, now=now):
            raise StaleVersion(_("The battle changed meanwhile; try again."))
        store.event(
            battle, ClockEvent.Kind.TOUCHED, now=now, via=ClockEvent.Via.PLAYER, detail=square
        )
    return battle


def offer_end(battle_id: int, *, side: str, now: datetime) -> Battle:
    """Offer to end the battle. An offer does not touch the clock (no version bump)."""
    settle(battle_id, via=ClockEvent.Via.READ, now=now)
    updated = Battle.objects.filter(
        pk=battle_id, status__in=[Battle.Status.RUNNING, Battle.Status.PAUSED]
    ).update(end_offered_by=side)
    battle = store.load(battle_id)
    if not updated:
        raise NotAllowed(_("This battle cannot be ended now."))
    store.on_commit_publish(battle, now=now)
    transaction.on_commit(
        lambda: signals.end_offered.send(
            sender=Battle, battle_id=battle.pk, side=side, bot_side=battle.bot_side
        )
    )
    return battle


def decline_end(battle_id: int, *, side: str, now: datetime) -> Battle:
    Battle.objects.filter(pk=battle_id).exclude(end_offered_by=side).update(end_offered_by="")
    battle = store.load(battle_id)
    store.on_commit_publish(battle, now=now)
    return battle


def accept_end(battle_id: int, *, side: str, now: datetime) -> Battle:
    settle(battle_id, via=ClockEvent.Via.READ, now=now)
    with transaction.atomic():
        battle = store.load(battle_id)
        if not battle.end_offered_by or battle.end_offered_by == side:
            raise NotAllowed(_("There is no offer from your opponent to accept."))
        if battle.status not in (Battle.Status.RUNNING, Battle.Status.PAUSED):
            raise NotAllowed(_("This battle cannot be ended now."))
        if not store.write(battle, clock.finish(battle.clock_state, REASON_AGREEMENT), now=now):
            raise StaleVersion(_("The battle changed meanwhile; try again."))
        store.event(battle, ClockEvent.Kind.END_AGREED, now=now, via=ClockEvent.Via.PLAYER)
        finishing.finished(battle, now=now)
    return battle


def may_resign(battle: Battle) -> bool:
    """Whether a player of ``battle`` may resign it: an online casual battle (against a
    person or the computer) that runs or is paused."""
    return (
        battle.is_casual
        and battle.mode == Battle.Mode.ONLINE
        and battle.status in (Battle.Status.RUNNING, Battle.Status.PAUSED)
    )


def resign(battle_id: int, *, side: str, version: int, now: datetime) -> Battle:
    """``side`` resigns the battle as it stood at ``version`` (the score its player was
    shown): it ends now, the other side wins. A second tap of the same resignation returns
    the battle as it is (applied once); any other state refuses with a message."""
    settle(battle_id, via=ClockEvent.Via.READ, now=now)
    with transaction.atomic():
        battle = store.load(battle_id)
        if battle.is_finished:
            if battle.finished_reason == REASON_RESIGNED and battle.side_to_move == side:
                return battle
            raise NotAllowed(_("This battle is over."))
        if not battle.is_casual:
            raise NotAllowed(
                _("A tournament battle cannot be resigned: offer to end it, or ask a referee.")
            )
        if not may_resign(battle):
            raise NotAllowed(_("This battle cannot be resigned now."))
        if version != battle.clock_version:
            raise StaleVersion(
                _(
                    "The battle changed meanwhile (a move or the clock); "
                    "look at the board and resign again if you still want to."
                )
            )
        state = clock.resign(battle.clock_state, side)
        if not store.write(battle, state, now=now, end_offered_by=""):
            raise StaleVersion(_("The battle changed meanwhile; try again."))
        store.event(battle, ClockEvent.Kind.RESIGNED, now=now, via=ClockEvent.Via.PLAYER)
        finishing.finished(battle, now=now)
    return battle
