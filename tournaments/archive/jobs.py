"""Importing an uploaded archive as a background job (issue 40: never inside the request).

Terminology and invariants:
- The request only stores the file (``queue_import``: its size is refused before it is
  read, ``MAX_ARCHIVE_BYTES``); a worker on the default queue runs ``run_import``, which
  reads and checks it (``read_archive``) and writes it (``import_archive``, one
  transaction: everything or nothing).
- A job goes queued → running (step *checking*, then *writing*) → done or failed. Each run
  takes the next ``attempt`` under the row's lock, only from *queued*: a duplicated or
  redelivered task finds the job running or over and does nothing. The write happens with
  the job's row locked, and the job is marked done in the same transaction as the
  tournament, only if the run still holds the current attempt: so a tournament is written
  at most once per job, and a job is done exactly when its tournament exists.
- A worker that dies mid-import leaves the job *running* with nothing written (the write
  transaction dies with it). After ``STUCK_AFTER`` a job still queued or running is shown
  as stopped, and its uploader may send it again (``resend``): a new attempt; the old run,
  if it were only slow, then finds its attempt stale and writes nothing.
- Time: ``now`` is passed in; ``run_import`` takes the clock, as a job lasts a while.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.archive.validation import ArchiveError, read_archive
from tournaments.archive.writer import import_archive
from tournaments.models.imports import ArchiveImport

log = logging.getLogger(__name__)

#: A job queued or running this long has stopped (its worker died, or no worker took it):
#: several times what the largest allowed file takes (``MAX_ARCHIVE_BYTES``).
STUCK_AFTER = timedelta(minutes=10)

State = ArchiveImport.State
Step = ArchiveImport.Step


class TooLarge(ArchiveError):
    """The upload is over ``MAX_ARCHIVE_BYTES``; nothing was stored."""


def max_bytes() -> int:
    return settings.MAX_ARCHIVE_BYTES


def too_large_message() -> str:
    return _("The file is too large: at most %(megabytes)d MB.") % {
        "megabytes": max_bytes() // (1024 * 1024)
    }


def queue_import(
    data: bytes, *, file_name: str, slug: str, language: str, by: User, now: datetime
) -> ArchiveImport:
    """A queued job for ``data`` (not read here); the caller publishes it on commit. Its
    messages will be in ``language``, the uploader's."""
    if len(data) > max_bytes():
        raise TooLarge(too_large_message())
    return ArchiveImport.objects.create(
        uploaded_by=by,
        file_name=file_name[:255],
        size=len(data),
        data=data,
        slug=slug,
        language=language,
        created_at=now,
        queued_at=now,
    )


def recent_imports(user: User, count: int = 5) -> list[ArchiveImport]:
    """The user's last uploads, newest first (without their files)."""
    return list(
        ArchiveImport.objects.filter(uploaded_by=user)
        .defer("data")
        .select_related("tournament")[:count]
    )


def is_stuck(job: ArchiveImport, *, now: datetime) -> bool:
    """Queued or running for longer than any import should take."""
    since = job.started_at if job.state == State.RUNNING else job.queued_at
    return (
        job.state in (State.QUEUED, State.RUNNING)
        and since is not None
        and (now - since > STUCK_AFTER)
    )


def resend(job_id: int, *, now: datetime) -> bool:
    """A stuck job queued again (the caller publishes it on commit); ``False`` if the job
    is not stuck or a worker holds it now."""
    with transaction.atomic():
        # skip_locked: a worker writing it holds the row; never wait for it in a request.
        job = ArchiveImport.objects.select_for_update(skip_locked=True).filter(pk=job_id).first()
        if job is None or not is_stuck(job, now=now):
            return False
        job.state, job.step, job.queued_at, job.started_at = State.QUEUED, Step.WAITING, now, None
        job.save(update_fields=["state", "step", "queued_at", "started_at"])
    return True


def run_import(job_id: int, *, clock: Callable[[], datetime]) -> str:
    """Run a queued job to its end; what happened, for the worker's log."""
    attempt = _start(job_id, now=clock())
    if attempt is None:
        return "not queued: nothing to do"
    job = ArchiveImport.objects.get(pk=job_id)
    with translation.override(job.language or None):
        return _run(job, attempt, clock=clock)


def _run(job: ArchiveImport, attempt: int, *, clock: Callable[[], datetime]) -> str:
    job_id = job.pk
    try:
        document = read_archive(bytes(job.data))
        _advance(job_id, attempt, players=len(document["entries"]), rounds=len(document["rounds"]))
        with transaction.atomic():
            job = ArchiveImport.objects.select_for_update().get(pk=job_id)
            if job.attempt != attempt or job.state != State.RUNNING:
                return "stale attempt: nothing written"
            tournament = import_archive(document, slug=job.slug, by=job.uploaded_by, now=clock())
            _finish(job, state=State.DONE, now=clock(), tournament=tournament)
        copy = f" (a copy of {tournament.copy_of.slug})" if tournament.copy_of else ""
        return f"imported {tournament.slug}{copy}"
    except ArchiveError as exc:
        _fail(job_id, attempt, str(exc), now=clock())
        return f"refused: {exc}"
    except Exception:
        log.exception("archive import %s failed", job_id)
        _fail(job_id, attempt, _("the import failed unexpectedly."), now=clock())
        raise


def _start(job_id: int, *, now: datetime) -> int | None:
    with transaction.atomic():
        job = ArchiveImport.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.state != State.QUEUED:
            return None
        job.state, job.step, job.started_at = State.RUNNING, Step.CHECKING, now
        job.attempt += 1
        job.save(update_fields=["state", "step", "started_at", "attempt"])
        return job.attempt


def _advance(job_id: int, attempt: int, *, players: int, rounds: int) -> None:
    ArchiveImport.objects.filter(pk=job_id, attempt=attempt, state=State.RUNNING).update(
        step=Step.WRITING, players=players, rounds=rounds
    )


def _fail(job_id: int, attempt: int, message: str, *, now: datetime) -> None:
    with transaction.atomic():
        job = ArchiveImport.objects.select_for_update().get(pk=job_id)
        if job.attempt == attempt and job.state == State.RUNNING:
            _finish(job, state=State.FAILED, now=now, error=message)


def _finish(job: ArchiveImport, *, state: str, now: datetime, **fields) -> None:
    for name, value in {
        "state": state,
        "step": Step.FINISHED,
        "finished_at": now,
        **fields,
    }.items():
        setattr(job, name, value)
    job.data = b""
    job.save()
