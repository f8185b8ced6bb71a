"""The set-based sweeper: every due expiry of a tick in a constant number of statements.

Terminology and invariants (see ``games/battles/`` and DESIGN.md §5):
- A *tick* (the clock timer at each due time, ``games.live.timer``; beat every second)
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
  timers) are published in one Redis pipeline (``games.live.bulk`` writes and publishes).
- Every tick first looks at the web heartbeats (``games.live.outages.check``): it pauses
  every timed battle while players cannot reach the site, resumes them when they
  can, and hands the time the site was last seen to the expiries, which wait for
  a heartbeat newer than their deadline (``clock.resolve_timeout``). Then it pauses the
  over-the-board battles whose referee page is offline (``games.live.referees.check``),
  whose expiries wait for that page's beat as well (``games.rules.referee_presence``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import transaction

from games.battles.settle import settle
from games.live import bulk, outages, quarantine, referees
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock, referee_presence

# Enough for a 10,000-battle hall falling one tick behind; the rest waits a second.
TICK_LIMIT = 5_000


def _bulk_ok(battle: Battle) -> bool:
    """An expiry with no follow-up beyond the row, its ClockEvent and its Move."""
    return battle.mode == Battle.Mode.OTB


def sweep(*, read_clock: Callable[[], datetime], via: str = ClockEvent.Via.SWEEP) -> int:
    """A tick: pause or resume for outages, pause the battles whose referee page is
    offline (``games.live.referees``), then settle every due expiry; returns how
    many battles changed.

    ``read_clock`` is the wall clock the caller (the timer, the beat task) hands in: a
    tick reads it afresh for each step, so a long tick does not stamp its later
    transitions with the time it started.
    """
    seen, changed = outages.check(via=via, now=read_clock())
    changed += referees.check(via=via, now=read_clock())
    return changed + settle_expiries(via=via, read_clock=read_clock, seen=seen)


def settle_expiries(*, via: str, read_clock: Callable[[], datetime], seen: datetime | None) -> int:
    """Settle every due expiry (``seen``: when the site was last seen up); returns how
    many battles changed.

    A row another transaction holds is skipped: that transaction moves the battle on,
    or the caller's next pass (the timer's, a few milliseconds later) settles it.
    """
    done, rest, set_aside = _bulk_pass(via=via, read_clock=read_clock, seen=seen)
    changed = len(done) + set_aside
    for pk, version in rest:
        try:
            changed += int(settle(pk, via=via, now=read_clock()).clock_version != version)
        except Exception as error:  # one battle never stops the others (issue 40)
            changed += len(quarantine.set_aside([(pk, version, error)], via=via, now=read_clock()))
    return changed


def _bulk_pass(
    *, via: str, read_clock: Callable[[], datetime], seen: datetime | None
) -> tuple[list[bulk.Settled], list[tuple[int, int]], int]:
    """The bulk transitions written, the battles ``settle()`` handles one by one, and how
    many battles were set aside (``games.live.quarantine``)."""
    with transaction.atomic():
        # Candidates by the (status, deadline) index; the grace is per row. Only the due
        # ones are locked: a row still in its grace may be moved on meanwhile, and the
        # move must not find it held by this pass.
        at = read_clock()
        due_ids = [
            pk
            for pk, deadline, grace_ms in Battle.objects.filter(
                status=Battle.Status.RUNNING, deadline__lte=at
            )
            .order_by("deadline")
            .values_list("pk", "deadline", "grace_ms")[:TICK_LIMIT]
            if deadline is not None and deadline + timedelta(milliseconds=grace_ms) <= at
        ]
        if not due_ids:
            return [], [], 0
        candidates = list(
            Battle.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(pk__in=due_ids, status=Battle.Status.RUNNING)
            .order_by("deadline")
        )
        # The transition time is read after the lock is ours, as settle() reads it
        # after loading the row.
        now = read_clock()
        transitions: list[bulk.Transition] = []
        rest: list[tuple[int, int]] = []
        failed: list[tuple[int, int, BaseException]] = []
        for battle in candidates:
            try:
                transition = _transition(battle, now=now, seen=seen)
            except Exception as error:  # one battle never stops the others (issue 40)
                failed.append((battle.pk, battle.clock_version, error))
                continue
            if transition is _REST:
                rest.append((battle.pk, battle.clock_version))
            elif transition is not None:
                transitions.append(transition)
        set_aside = quarantine.set_aside(failed, via=via, now=now)
        done = bulk.write(transitions, via=via, now=now)
    return done, rest, len(set_aside)


#: ``_transition``'s answer for a battle that ``settle()`` handles one by one.
_REST = object()


def _transition(battle: Battle, *, now: datetime, seen: datetime | None):
    """The bulk transition of a locked candidate, ``None`` (nothing to do yet) or
    ``_REST``."""
    state = battle.clock_state
    if not clock.expiry_due(state, now):
        return None
    if not _bulk_ok(battle):
        return _REST
    if referee_presence.offline(battle.referee_seen_at, now):
        return None  # its page is offline: the next tick pauses it, forfeiting nothing
    # An over-the-board expiry also waits for its referee page to beat after it.
    battle_seen = referee_presence.seen_for_expiry(seen, battle.referee_seen_at)
    new, kind = clock.resolve_timeout(state, now, battle_seen)
    if kind == clock.EXPIRY_WAITS:
        return None
    return bulk.Transition(battle, new, kind, clock.due_at(state))
