"""Celery tasks of a battle's analysis (``games.analysis.runs``).

- ``analyse(battle_id)`` ("bots.analyse", on the analysis queue: its own worker, never
  the bots worker, a web or a clock process) runs a finished battle's queued analysis
  (``games.analysis.runs``): late acknowledgement, time limits that grow with the battle
  (given when it is published, :func:`publish_analysis`), and a compare-and-set that runs
  it once. ``analysis_resend`` ("analysis.resend", beat, on the default queue) sends again
  the analyses whose message was lost, once the analysis queue is empty.
- The workers autodiscover ``games.tasks``, which imports this module.
"""

from __future__ import annotations

import logging
import time

from celery import shared_task
from django.conf import settings
from django.utils import timezone
from kombu.exceptions import ChannelError

from games.analysis import runs as analysis_runs

log = logging.getLogger(__name__)

#: How long a request may spend publishing (seconds): one try, like the outbox's.
PUBLISH_TIMEOUT_S = 1.0


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
