"""Celery tasks of the clock: thin, idempotent, and never the only trigger.

- ``expire(battle_id, version)`` is scheduled on commit for ``deadline + grace``
  (an ETA task on the clock queue). A different version means the battle moved
  on: the task is stale and does nothing (we never ``revoke()``). Otherwise it
  runs the set-based pass, which settles every expiry due by then.
- ``sweep()`` runs every second from beat and settles every battle whose expiry
  is overdue: it catches ETA tasks lost to a killed worker or a Redis restart.
  It is set-based (``games.sweep``): a constant number of statements per tick.
Both apply the transition of ``games.battles.settle`` (the sweep computes it in
bulk with the same pure function); compare-and-set applies an expiry once.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from .models import Battle, ClockEvent


def clock_queue() -> str:
    return getattr(settings, "THUD_CLOCK_QUEUE", "clock")


@shared_task(name="games.expire", ignore_result=True)
def expire(battle_id: int, version: int) -> None:
    """Settle this battle's expiry, and with it every other one due by now (set-based).

    Under load the ETA tasks of a busy second queue up behind each other; the first
    one to run settles them all in one pass, and the rest find a new version and stop
    at the one-row check below instead of settling one battle each.
    """
    from . import sweep as bulk

    if Battle.objects.filter(pk=battle_id, clock_version=version).exists():
        bulk.sweep(via=ClockEvent.Via.ETA, battle_id=battle_id)


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    from . import sweep as bulk

    return bulk.sweep(via=ClockEvent.Via.SWEEP)
