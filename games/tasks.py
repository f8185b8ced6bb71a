"""Celery tasks of the clock: thin, idempotent, and never the only trigger.

- ``expire(battle_id, version)`` is scheduled on commit for ``deadline + grace``
  exactly (an ETA task on the clock queue, ``schedule_expiry``). A different version
  means the battle moved on: the task is stale and does nothing (we never
  ``revoke()``). A task that fires a little early (another machine's clock, the
  timer's rounding) waits for the due time instead of leaving the expiry to the next
  sweep a second later. Then it runs the set-based pass, which settles every expiry
  due by then (measured: settling only its own battle through ``settle()`` cost more
  per expiry and made the p99 worse, see bench/clocks.py).
- ``sweep()`` runs every second from beat and settles every battle whose expiry
  is overdue: it catches ETA tasks lost to a killed worker or a Redis restart.
  It is set-based (``games.sweep``): a constant number of statements per tick.
Both apply the transition of ``games.battles.settle`` (the sweep computes it in
bulk with the same pure function); compare-and-set applies an expiry once.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from .models import Battle, ClockEvent

#: The longest an expiry task waits for its due time when it fires early. Longer is
#: not an early timer but a wrong schedule: the task goes ahead (and finds nothing due).
EARLY_WAIT_S = 0.5


def clock_queue() -> str:
    return getattr(settings, "THUD_CLOCK_QUEUE", "clock")


def schedule_expiry(battle_id: int, version: int, due: datetime, *, producer=None) -> None:
    """An ETA task at ``due`` (deadline + grace) on the clock queue."""
    expire.apply_async(args=(battle_id, version), eta=due, queue=clock_queue(), producer=producer)


@shared_task(name="games.expire", ignore_result=True)
def expire(battle_id: int, version: int) -> None:
    """Settle this battle's expiry, and with it every other one due by now (set-based).

    Under load the ETA tasks of a busy second queue up behind each other; the first
    one to run settles them all in one pass, and the rest find a new version and stop
    at the one-row check below instead of settling one battle each.
    """
    from . import sweep as bulk

    row = (
        Battle.objects.filter(pk=battle_id, clock_version=version)
        .values_list("deadline", "grace_ms")
        .first()
    )
    if row is None:
        return
    deadline, grace_ms = row
    if deadline is None:
        return
    early = (deadline + timedelta(milliseconds=grace_ms) - timezone.now()).total_seconds()
    if 0 < early <= EARLY_WAIT_S:
        time.sleep(early)
    bulk.sweep(via=ClockEvent.Via.ETA, battle_id=battle_id)


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    from . import sweep as bulk

    return bulk.sweep(via=ClockEvent.Via.SWEEP)
