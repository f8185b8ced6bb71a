"""Celery tasks of the tournaments app: thin, idempotent, on the default queue (never the
clock's)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from tournaments.archive import jobs

log = logging.getLogger(__name__)

#: A request spends at most this long publishing (seconds): one try, as the outbox does.
PUBLISH_TIMEOUT_S = 1.0
_ONE_TRY = {
    "max_retries": 0,
    "socket_connect_timeout": PUBLISH_TIMEOUT_S,
    "socket_timeout": PUBLISH_TIMEOUT_S,
}


@shared_task(name="tournaments.run_archive_import", ignore_result=True)
def run_archive_import(job_id: int) -> str:
    return jobs.run_import(job_id, clock=timezone.now)


def publish_archive_import(job_id: int) -> None:
    """Ask a worker for the job; never raises: a job nobody took is shown as stopped after
    ``jobs.STUCK_AFTER``, and its uploader may send it again."""
    try:
        with run_archive_import.app.connection_for_write(
            connect_timeout=PUBLISH_TIMEOUT_S, transport_options=_ONE_TRY
        ) as connection:
            run_archive_import.apply_async(
                args=[job_id],
                queue=settings.CELERY_TASK_DEFAULT_QUEUE,
                connection=connection,
                retry=False,
            )
    except Exception:  # the broker is down or refusing
        log.warning("could not publish tournaments.run_archive_import(%s)", job_id)
