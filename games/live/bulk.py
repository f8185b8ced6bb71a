"""Bulk clock writes: many battles' transitions in a constant number of statements.

Terminology and invariants (used by ``games.live.sweep`` and ``games.live.outages``):
- The caller holds the rows (``SELECT … FOR UPDATE SKIP LOCKED``) inside one
  transaction and has computed each battle's new clock state with the pure functions
  of ``games.rules.clock``; ``write`` stores them all: one ``UPDATE`` of every clock column,
  one ``INSERT`` of the ClockEvents, one of the forfeit Moves.
- Every row's ``clock_version`` is bumped, so a compare-and-set writer that raced us
  finds ``rowcount == 0`` after our commit: a transition still applies exactly once.
- After commit: the new states and the earliest new due time (which wakes the
  timers) are published in one Redis pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Field

from games.events import publish
from games.models.battle import Battle, clock_fields
from games.models.history import ClockEvent, Move
from games.rules import clock

CLOCK_COLUMNS = [*clock_fields(clock.ClockState(config=clock.ClockConfig())), "clock_version"]


@dataclass(frozen=True)
class Settled:
    """One transition applied in bulk: what ``after_commit`` needs."""

    battle_id: int
    version: int
    state: clock.ClockState
    offer: str


@dataclass(frozen=True)
class Transition:
    """A locked battle, its new clock state and the ClockEvent kind that records it."""

    battle: Battle
    state: clock.ClockState
    kind: str
    due_at: datetime | None = None
    detail: str = ""


def write(transitions: list[Transition], *, via: str, now: datetime) -> list[Settled]:
    """Store every transition (the rows are locked by the caller's transaction)."""
    if not transitions:
        return []
    changed: list[Battle] = []
    clock_events: list[ClockEvent] = []
    moves: list[Move] = []
    done: list[Settled] = []
    offers_ended: list[int] = []
    for t in transitions:
        battle = t.battle
        ply, side, version = battle.ply, battle.side_to_move, battle.clock_version
        for name, value in clock_fields(t.state).items():
            setattr(battle, name, value)
        battle.clock_version = version + 1
        battle.updated_at = now
        changed.append(battle)
        clock_events.append(
            ClockEvent(
                battle=battle,
                ply=ply,
                kind=t.kind,
                due_at=t.due_at,
                applied_at=now,
                via=via,
                detail=t.detail,
            )
        )
        if t.kind == clock.TURN_EXPIRED:
            moves.append(
                Move(
                    battle=battle,
                    ply=ply,
                    side=side,
                    kind=Move.Kind.FORFEIT,
                    submitted_at=now,
                    clock_version_before=version,
                )
            )
        if t.state.status == clock.FINISHED and battle.end_offered_by:
            battle.end_offered_by = ""  # an offer ends with its battle (``finishing.finished``)
            offers_ended.append(battle.pk)
        done.append(Settled(battle.pk, version + 1, t.state, battle.end_offered_by))
    _update(changed, now)
    if offers_ended:
        Battle.objects.filter(pk__in=offers_ended).update(end_offered_by="")
    ClockEvent.objects.bulk_create(clock_events)
    Move.objects.bulk_create(moves)
    transaction.on_commit(lambda: _announce(done, now=now))
    return done


def _update(battles: list[Battle], now: datetime) -> None:
    """One UPDATE of the clock columns of every battle (rows locked by the caller)."""
    if connection.vendor == "postgresql":
        _update_postgresql(battles, now)
    else:
        # SQLite (``make run``): one UPDATE per batch of bound variables; the whole
        # database is locked by the IMMEDIATE transaction anyway.
        Battle.objects.bulk_update(battles, [*CLOCK_COLUMNS, "updated_at"])


def _update_postgresql(battles: list[Battle], now: datetime) -> None:
    """``UPDATE … FROM (VALUES …)``: one statement, its size linear, its plan flat."""
    table = Battle._meta.db_table
    columns = _clock_columns()
    casts = [f.db_type(connection) for f, _column in columns]
    row = "(" + ", ".join(["%s::bigint"] + [f"%s::{cast}" for cast in casts]) + ")"
    params: list = []
    for b in battles:
        params.append(b.pk)
        params.extend(getattr(b, f.attname) for f, _column in columns)
    names = ", ".join(connection.ops.quote_name(column) for _f, column in columns)
    sets = ", ".join(
        f"{connection.ops.quote_name(column)} = v.{connection.ops.quote_name(column)}"
        for _f, column in columns
    )
    sql = (
        f"UPDATE {connection.ops.quote_name(table)} AS b SET {sets}, updated_at = %s "
        f"FROM (VALUES {', '.join([row] * len(battles))}) AS v(id, {names}) "
        "WHERE b.id = v.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, *params])
        if cursor.rowcount != len(battles):  # the rows are locked: cannot happen
            raise RuntimeError(f"bulk write updated {cursor.rowcount} of {len(battles)} rows")


def _clock_columns() -> list[tuple[Field[Any, Any], str]]:
    """The clock fields of ``Battle`` and their columns, in ``CLOCK_COLUMNS`` order."""
    found = []
    for name in CLOCK_COLUMNS:
        field = Battle._meta.get_field(name)
        # Concrete columns of the table, by construction of CLOCK_COLUMNS.
        assert isinstance(field, Field) and field.column is not None
        found.append((field, field.column))
    return found


def _announce(done: list[Settled], *, now: datetime) -> None:
    """The new states (and the earliest new due time), in one pipeline, after commit."""
    publish.publish_states(((s.battle_id, s.version, s.state, s.offer) for s in done), now=now)
