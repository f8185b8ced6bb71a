"""Celery tasks of the clock: thin, idempotent, and never the only trigger.

- The precise trigger of an expiry is the clock timer (``games.timer``), a thread of
  every worker consuming the clock queue, not a task.
- ``sweep()`` runs every second from beat and settles every battle whose expiry is
  overdue: it covers the timers while no clock worker runs (a node restarting). It is
  set-based (``games.sweep``): a constant number of statements per tick.
Both apply the transition of ``games.battles.settle`` (the sweep computes it in bulk
with the same pure function); compare-and-set applies an expiry once.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from .models import ClockEvent


def clock_queue() -> str:
    return getattr(settings, "THUD_CLOCK_QUEUE", "clock")


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    from . import sweep as bulk

    return bulk.sweep(via=ClockEvent.Via.SWEEP)
