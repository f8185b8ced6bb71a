"""Celery tasks of the games app: thin, idempotent, and never the only trigger.

- The precise trigger of an expiry is the clock timer (``games.live.timer``), a thread of
  every worker consuming the clock queue, not a task.
- ``sweep()`` runs every second from beat and settles every battle whose expiry is
  overdue: it covers the timers while no clock worker runs (a node restarting). It is
  set-based (``games.live.sweep``): a constant number of statements per tick.
Both apply the transition of ``games.battles.settle`` (the sweep computes it in bulk
with the same pure function); compare-and-set applies an expiry once.

- ``bot_move(battle_id, version)`` ("bots.move", on the bots queue) computes and plays the
  computer's move if it is still its turn at ``version``; ``bot_resend`` ("bots.resend",
  beat) is the safety net that queues it again (both in ``games.bots.moves``).
- The analysis tasks (``analyse``, ``analysis_resend``) are ``games.analysis.tasks``'s;
  this module imports it so that the workers, which autodiscover ``games.tasks``, know them.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from games.analysis import tasks as analysis_tasks  # noqa: F401 (registers the analysis tasks)
from games.bots import moves as bots
from games.live import sweep as live_sweep
from games.models.history import ClockEvent

log = logging.getLogger(__name__)


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    return live_sweep.sweep(via=ClockEvent.Via.SWEEP, read_clock=timezone.now)


@shared_task(
    name=bots.MOVE_TASK,
    acks_late=True,
    soft_time_limit=bots.SOFT_LIMIT_S,
    time_limit=bots.HARD_LIMIT_S,
    ignore_result=True,
)
def bot_move(battle_id: int, version: int) -> bool:
    """Compute and play the computer's move at ``version``, if it is still its turn."""
    battle = bots.computers_turn(battle_id, version)
    if battle is None:
        return False
    notation = bots.choose(battle, now=timezone.now())
    return bots.submit(battle, notation, version=version, now=timezone.now())


@shared_task(
    name=bots.ANSWER_TASK,
    acks_late=True,
    soft_time_limit=bots.SOFT_LIMIT_S,
    time_limit=bots.HARD_LIMIT_S,
    ignore_result=True,
)
def bot_answer_end(battle_id: int, version: int) -> str:
    """The computer answers an offer to end the battle made to it, if it still stands."""
    return bots.answer_end(battle_id, version, read_clock=timezone.now)


@shared_task(name="bots.resend", ignore_result=True)
def bot_resend() -> int:
    return bots.resend_stalled(now=timezone.now())
