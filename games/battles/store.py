"""The compare-and-set write of a battle's clock, and what follows it on commit.

``write`` stores a new clock state with one ``UPDATE … WHERE id = ? AND clock_version = v``
and bumps the version: the writer that commits first wins, everyone else finds
``rowcount == 0`` and the battle unchanged. On commit the new state is published
(``games.events.publish``) and ``games.events.signals.turn_changed`` is sent.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from games.events import publish, signals
from games.models.battle import Battle, clock_fields
from games.models.history import ClockEvent
from games.rules import clock


def write(battle: Battle, state: clock.ClockState, *, now: datetime, **extra: Any) -> bool:
    """Compare-and-set the battle row to ``state``; update ``battle`` in memory on success."""
    fields = clock_fields(state) | extra
    version = battle.clock_version
    updated = Battle.objects.filter(pk=battle.pk, clock_version=version).update(
        clock_version=version + 1, updated_at=now, **fields
    )
    if updated != 1:
        return False
    for name, value in fields.items():
        setattr(battle, name, value)
    battle.clock_version, battle.updated_at = version + 1, now
    on_commit_publish(battle, now=now, state=state, bot_side=battle.bot_side)
    return True


def on_commit_publish(
    battle: Battle,
    *,
    now: datetime,
    state: clock.ClockState | None = None,
    offer: str | None = None,
    bot_side: str = "",
) -> None:
    """``after_commit`` for ``battle`` once the transaction commits: its version, its clock
    state (or ``state``), its end offer (or ``offer``) and what it is, read from the row
    in memory then."""
    transaction.on_commit(
        lambda: after_commit(
            battle.pk,
            battle.clock_version,
            battle.clock_state if state is None else state,
            battle.end_offered_by if offer is None else offer,
            now=now,
            bot_side=bot_side,
            casual=battle.is_casual,
            timing=battle.timing,
        )
    )


def after_commit(
    battle_id: int,
    version: int,
    state: clock.ClockState,
    offer: str = "",
    *,
    now: datetime,
    casual: bool,
    timing: str,
    bot_side: str = "",
) -> None:
    """Publish the new state as of ``now`` (the transition's time), and with it the new due
    time for the clock timers; then tell the apps that react to play (``bot_side``: the
    side the computer plays, "" in a battle between people; ``casual`` and ``timing``: what
    the battle is, which the receivers would otherwise query on every press)."""
    publish.publish_state(battle_id, version, state, offer=offer, now=now)
    signals.turn_changed.send(
        sender=Battle,
        battle_id=battle_id,
        version=version,
        side_to_move=state.side_to_move,
        status=state.status,
        bot_side=bot_side,
        casual=casual,
        timing=timing,
        now=now,
    )


def load(battle_id: int) -> Battle:
    return Battle.objects.select_related("match").get(pk=battle_id)


def event(
    battle: Battle,
    kind: str,
    *,
    now: datetime,
    via: str,
    ply: int | None = None,
    due: datetime | None = None,
    detail: str = "",
) -> None:
    """Record a clock transition as a ``ClockEvent`` (the audit trail)."""
    ClockEvent.objects.create(
        battle=battle,
        ply=battle.ply if ply is None else ply,
        kind=kind,
        due_at=due,
        applied_at=now,
        via=via,
        detail=detail,
    )
