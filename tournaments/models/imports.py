"""An archive upload waiting for, or done by, the import job (``tournaments.archive.jobs``).

The web request only stores the file; a Celery worker on the default queue reads, checks
and writes it. The row is the job's whole state: its steps, its attempt (each run takes
the next number, so a stale run writes nothing), and the outcome the uploader reads.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament


class ArchiveImport(models.Model):
    """One uploaded archive and what became of it."""

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting for the import worker")
        RUNNING = "running", _("importing")
        DONE = "done", _("imported")
        FAILED = "failed", _("refused")

    class Step(models.TextChoices):
        WAITING = "waiting", _("waiting")
        CHECKING = "checking", _("reading and checking the file")
        WRITING = "writing", _("writing the tournament")
        FINISHED = "finished", _("finished")

    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="archive_imports"
    )
    file_name = models.CharField(max_length=255, blank=True)
    size = models.PositiveBigIntegerField()
    # The uploaded bytes, emptied once the job is over (a refusal is final: re-sending the
    # same file would be refused again).
    data = models.BinaryField()
    slug = models.CharField(max_length=80, blank=True)
    language = models.CharField(max_length=16, blank=True)  # of its messages: the uploader's
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    step = models.CharField(max_length=8, choices=Step.choices, default=Step.WAITING)
    attempt = models.PositiveSmallIntegerField(default=0)
    players = models.PositiveIntegerField(null=True, blank=True)
    rounds = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()
    queued_at = models.DateTimeField()  # the upload, or its last re-sending
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    @property
    def step_number(self) -> int:
        """1 to 3 of the three steps: waiting, checking, writing (4: finished)."""
        return list(self.Step).index(self.Step(self.step)) + 1

    def __str__(self) -> str:
        return f"import {self.pk} ({self.state})"
