"""The set-based sweeper: every due expiry of a tick in a constant number of statements.

Terminology and invariants (see ``games/battles.py`` and DESIGN.md §5):
- A *tick* (the clock timer at each due time, ``games.timer``; beat every second)
  settles every running battle whose expiry is due
  (``deadline + grace <= now``). The per-battle ``settle()`` costs about six
  round-trips per battle; a tick here costs five statements in one transaction
  whatever the number of due battles: one ``SELECT`` of the due ones, one
  ``SELECT … FOR UPDATE SKIP LOCKED`` of them, one ``UPDATE`` of all their clock columns, one ``INSERT`` of the
  ClockEvents, one of the forfeit Moves.
- ``settle()`` stays the one definition of an expiry: the new clock state of every
  battle is computed by the same pure ``clock.resolve_timeout`` that ``settle()``
  calls, and a test compares the two on random clocks, column by column.
- Every expiry of an over-the-board battle is done in bulk: forfeits (also the
  one that reaches the move limit or sends the battle to a referee) and outage
  pauses — for these ``settle()`` writes nothing but the row, one ClockEvent and
  the forfeit Move. Online battles go through ``settle()`` one by one: the engine
  passes the turn on the board and checks for a legal move, and a finished online
  battle starts battle 2 or records the match result.
- The candidate rows are locked (``SKIP LOCKED``: a row another writer holds is left
  to the next tick). Every other writer is a compare-and-set
  on ``clock_version``, which we bump, so a move or another timer that raced us finds
  ``rowcount == 0`` after our commit: an expiry still applies exactly once.
- After commit: the new states and the earliest new due time (which wakes the
  timers) are published in one Redis pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from . import clock, events
from .battles import settle
from .models import Battle, ClockEvent, Move, clock_fields

# Enough for a 10,000-battle hall falling one tick behind; the rest waits a second.
TICK_LIMIT = 5_000

CLOCK_COLUMNS = [*clock_fields(clock.ClockState(config=clock.ClockConfig())), "clock_version"]


@dataclass(frozen=True)
class Settled:
    """One expiry applied in bulk: what ``after_commit`` needs."""

    battle_id: int
    version: int
    state: clock.ClockState
    offer: str


def _bulk_ok(battle: Battle) -> bool:
    """An expiry with no follow-up beyond the row, its ClockEvent and its Move."""
    return battle.mode == Battle.Mode.OTB


def sweep(*, via: str = ClockEvent.Via.SWEEP, now: datetime | None = None) -> int:
    """Settle every due expiry; returns how many battles changed.

    A row another transaction holds is skipped: that transaction moves the battle on,
    or the caller's next pass (the timer's, a few milliseconds later) settles it.
    """
    fixed_now = now
    done, rest = _bulk_pass(via=via, now=now)
    changed = len(done)
    for pk, version in rest:
        changed += int(settle(pk, via=via, now=fixed_now).clock_version != version)
    return changed


def _bulk_pass(*, via: str, now: datetime | None) -> tuple[list[Settled], list[tuple[int, int]]]:
    with transaction.atomic():
        # Candidates by the (status, deadline) index; the grace is per row. Only the due
        # ones are locked: a row still in its grace may be moved on meanwhile, and the
        # move must not find it held by this pass.
        at = now or timezone.now()
        due_ids = [
            pk
            for pk, deadline, grace_ms in Battle.objects.filter(
                status=Battle.Status.RUNNING, deadline__lte=at
            )
            .order_by("deadline")
            .values_list("pk", "deadline", "grace_ms")[:TICK_LIMIT]
            if deadline + timedelta(milliseconds=grace_ms) <= at
        ]
        if not due_ids:
            return [], []
        candidates = list(
            Battle.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(pk__in=due_ids, status=Battle.Status.RUNNING)
            .order_by("deadline")
        )
        # The transition time is read after the lock is ours, as settle() reads it
        # after loading the row.
        now = now or timezone.now()
        changed: list[Battle] = []
        events: list[ClockEvent] = []
        moves: list[Move] = []
        done: list[Settled] = []
        rest: list[tuple[int, int]] = []
        for battle in candidates:
            state = battle.clock_state
            if not clock.expiry_due(state, now):
                continue
            if not _bulk_ok(battle):
                rest.append((battle.pk, battle.clock_version))
                continue
            new, kind = clock.resolve_timeout(state, now)
            forfeited_ply, side, version = battle.ply, battle.side_to_move, battle.clock_version
            for name, value in clock_fields(new).items():
                setattr(battle, name, value)
            battle.clock_version = version + 1
            battle.updated_at = now
            changed.append(battle)
            events.append(
                ClockEvent(
                    battle=battle,
                    ply=forfeited_ply,
                    kind=kind,
                    due_at=clock.due_at(state),
                    applied_at=now,
                    via=via,
                )
            )
            if kind == clock.TURN_EXPIRED:
                moves.append(
                    Move(
                        battle=battle,
                        ply=forfeited_ply,
                        side=side,
                        kind=Move.Kind.FORFEIT,
                        submitted_at=now,
                        clock_version_before=version,
                    )
                )
            done.append(Settled(battle.pk, version + 1, new, battle.end_offered_by))
        if changed:
            _update(changed, now)
            ClockEvent.objects.bulk_create(events)
            Move.objects.bulk_create(moves)
            transaction.on_commit(lambda: _announce(done))
    return done, rest


def _update(battles: list[Battle], now: datetime) -> None:
    """One UPDATE of the clock columns of every battle (rows locked above)."""
    if connection.vendor == "postgresql":
        _update_postgresql(battles, now)
    else:
        # SQLite (``make run``): one UPDATE per batch of bound variables; the whole
        # database is locked by the IMMEDIATE transaction anyway.
        Battle.objects.bulk_update(battles, [*CLOCK_COLUMNS, "updated_at"])


def _update_postgresql(battles: list[Battle], now: datetime) -> None:
    """``UPDATE … FROM (VALUES …)``: one statement, its size linear, its plan flat."""
    table = Battle._meta.db_table
    columns = [Battle._meta.get_field(name) for name in CLOCK_COLUMNS]
    casts = [f.db_type(connection) for f in columns]
    row = "(" + ", ".join(["%s::bigint"] + [f"%s::{cast}" for cast in casts]) + ")"
    params: list = []
    for b in battles:
        params.append(b.pk)
        params.extend(getattr(b, f.attname) for f in columns)
    names = ", ".join(connection.ops.quote_name(f.column) for f in columns)
    sets = ", ".join(
        f"{connection.ops.quote_name(f.column)} = v.{connection.ops.quote_name(f.column)}"
        for f in columns
    )
    sql = (
        f"UPDATE {connection.ops.quote_name(table)} AS b SET {sets}, updated_at = %s "
        f"FROM (VALUES {', '.join([row] * len(battles))}) AS v(id, {names}) "
        "WHERE b.id = v.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, *params])
        if cursor.rowcount != len(battles):  # the rows are locked: cannot happen
            raise RuntimeError(f"bulk expiry updated {cursor.rowcount} of {len(battles)} rows")


def _announce(done: list[Settled]) -> None:
    """The new states (and the earliest new due time), in one pipeline, after commit."""
    events.publish_states((s.battle_id, s.version, s.state, s.offer) for s in done)
