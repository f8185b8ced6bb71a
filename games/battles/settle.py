"""Settle: the one place a due expiry of a single battle is applied, exactly once.

Every request that touches a battle settles it first (``via="read"``), so the clock is
enforced even while Celery or Redis is down; the clock timer and the beat sweep settle
the online battles one by one here too (``games.live.sweep`` does the others in bulk,
with the same pure ``clock.resolve_timeout``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from games.battles import finishing, store
from games.models.battle import Battle
from games.models.heartbeat import site_seen_at
from games.models.history import Move
from games.rules import clock, referee_presence


def settle(battle_id: int, *, via: str, now: datetime, loaded: Battle | None = None) -> Battle:
    """Apply a due expiry of the current turn, once. Safe to call any number of times.

    The read needs no transaction of its own (every request settles, most find nothing
    due: a BEGIN and a COMMIT less on each): the write is a compare-and-set of the version
    read, so a battle changed since is left alone and read again. ``loaded``: the battle
    as this request has just read it (a view's gate), the same plain read, not repeated.
    """
    battle = store.load(battle_id) if loaded is None else loaded
    state = battle.clock_state
    if not clock.expiry_due(state, now):
        return battle
    due = clock.due_at(state)
    if referee_presence.offline(battle.referee_seen_at, now):
        return battle  # its referee page is offline: the sweep pauses it instead
    seen = referee_presence.seen_for_expiry(site_seen_at(), battle.referee_seen_at)
    new, kind = clock.resolve_timeout(state, now, seen)
    if kind == clock.EXPIRY_WAITS:
        return battle  # the site (or the referee page) not seen since the deadline yet
    extra: dict[str, Any] = {}
    if kind == clock.TURN_EXPIRED and battle.mode == Battle.Mode.ONLINE and battle.board:
        game = battle.rules
        position = game.pass_turn(game.deserialise(battle.board))
        extra["board"] = game.serialise(position)
        new = finishing.check_end(battle, new, position)
    forfeited_ply, side = battle.ply, battle.side_to_move
    with transaction.atomic():
        if not store.write(battle, new, now=now, **extra):
            return store.load(battle_id)  # someone else settled (or moved) first
        store.event(battle, kind, now=now, via=via, ply=forfeited_ply, due=due)
        if kind == clock.TURN_EXPIRED:
            Move.objects.create(
                battle=battle,
                ply=forfeited_ply,
                side=side,
                kind=Move.Kind.FORFEIT,
                submitted_at=now,
                clock_version_before=battle.clock_version - 1,
            )
        if new.status == clock.FINISHED:
            finishing.finished(battle, now=now)
    return battle
