"""Celery tasks of the clock: thin, idempotent, and never the only trigger.

- ``expire(battle_id, version)`` is scheduled on commit for ``deadline + grace``
  (an ETA task on the clock queue). A different version means the battle moved
  on: the task is stale and does nothing (we never ``revoke()``).
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
    from .battles import settle

    if Battle.objects.filter(pk=battle_id, clock_version=version).exists():
        settle(battle_id, via=ClockEvent.Via.ETA)


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    from . import sweep as bulk

    return bulk.sweep(via=ClockEvent.Via.SWEEP)
