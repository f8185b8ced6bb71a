"""Celery tasks of the clock: thin, idempotent, and never the only trigger.

- The precise trigger of an expiry is the clock timer (``games.live.timer``), a thread of
  every worker consuming the clock queue, not a task.
- ``sweep()`` runs every second from beat and settles every battle whose expiry is
  overdue: it covers the timers while no clock worker runs (a node restarting). It is
  set-based (``games.live.sweep``): a constant number of statements per tick.
Both apply the transition of ``games.battles.settle`` (the sweep computes it in bulk
with the same pure function); compare-and-set applies an expiry once.
"""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from games.models.history import ClockEvent

from .live import sweep as live_sweep


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    return live_sweep.sweep(via=ClockEvent.Via.SWEEP, read_clock=timezone.now)
