"""A finished battle's analysis (``BattleAnalysis``): asked for once, run once, kept.

Terminology and invariants:
- One row per battle at most (one-to-one): a second request finds it and changes nothing,
  unless it ``failed``, which may be queued again.
- ``status`` moves queued -> running -> done (or failed) by compare-and-set updates in
  :mod:`games.analysis.runs`, so a task delivered twice runs the search once.
- ``plies`` is the rows of :func:`games.rules.analysis.analyse_battle` (``PlyRow.as_dict``),
  ``ms_per_position`` the search budget they were found with.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.battle import Battle


class BattleAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    battle = models.OneToOneField(Battle, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    plies = models.JSONField(default=list, blank=True)
    ms_per_position = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["requested_by", "requested_at"], name="analysis_requested"),
        ]
        verbose_name = _("battle analysis")
        verbose_name_plural = _("battle analyses")

    def __str__(self) -> str:
        return f"{self.battle} ({self.status})"
