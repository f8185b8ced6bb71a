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
  beat) is the safety net that queues it again (both in ``games.bots``).
- ``analyse(battle_id)`` ("bots.analyse", on the analysis queue: its own worker, never
  the bots worker, a web or a clock process) runs a finished battle's queued analysis
  (``games.analysis_runs``): late acknowledgement, time limits that grow with the battle
  (given when it is published, :func:`publish_analysis`), and a compare-and-set that runs
  it once. ``analysis_resend`` ("analysis.resend", beat, on the default queue) sends again
  the analyses whose message was lost, once the analysis queue is empty.
"""

from __future__ import annotations

import logging
import time

from celery import shared_task
from django.conf import settings
from django.utils import timezone
from kombu.exceptions import ChannelError

from games.models.history import ClockEvent

from . import analysis_runs, bots
from .live import sweep as live_sweep

log = logging.getLogger(__name__)

#: How long a request may spend publishing (seconds): one try, like the outbox's.
PUBLISH_TIMEOUT_S = 1.0


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


@shared_task(name="bots.analyse", ignore_result=True, acks_late=True)
def analyse(battle_id: int) -> str:
    return analysis_runs.run_analysis(
        battle_id, now=timezone.now(), clock=time.monotonic, read_now=timezone.now
    )


@shared_task(name="analysis.resend", ignore_result=True)
def analysis_resend() -> int:
    """Send again every analysis lost to a broker outage (``analysis_runs.lost``), if the
    analysis queue is empty; how many."""
    lost = analysis_runs.lost(now=timezone.now())
    if not lost or analysis_queue_length() != 0:
        return 0
    for battle_id, positions in lost:
        publish_analysis(battle_id, positions)
    log.warning("analyses sent again (lost with their message): %s", [b for b, _p in lost])
    return len(lost)


def analysis_queue_length() -> int | None:
    """The messages waiting in the analysis queue (a worker's unacknowledged one is not
    among them), ``None`` when the broker cannot say."""
    try:
        with analyse.app.connection_for_read() as connection, connection.channel() as channel:
            return channel.queue_declare(
                queue=settings.THUD_ANALYSIS_QUEUE, passive=True
            ).message_count
    except ChannelError:  # no such queue: nothing was ever left waiting in it
        return 0
    except Exception:
        log.warning("could not read the length of the analysis queue")
        return None


def publish_analysis(battle_id: int, positions: int) -> bool:
    """Send ``analyse(battle_id)`` with time limits for ``positions``; never raises (a
    lost message leaves the analysis queued, and asking again sends it again)."""
    soft, hard = analysis_runs.time_limits(positions)
    try:
        with analyse.app.connection_for_write(
            connect_timeout=PUBLISH_TIMEOUT_S,
            transport_options={"max_retries": 0},
        ) as connection:
            analyse.apply_async(
                args=[battle_id],
                queue=settings.THUD_ANALYSIS_QUEUE,
                soft_time_limit=soft,
                time_limit=hard,
                connection=connection,
                retry=False,
            )
    except Exception:  # the broker is down or refusing
        log.warning("could not publish bots.analyse(%s)", battle_id)
        return False
    return True
