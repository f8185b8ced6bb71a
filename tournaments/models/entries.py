"""What hangs off an entry: a round it does not play, the history of its edits, and the pairs
of entries never to be paired (``organising.checkin``, ``organising.entries``, ``rounds.edits``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Entry, Tournament


class RoundAbsence(models.Model):
    """An entry not playing one round (``organising.checkin``): not paired and given no
    bye in that round, still in the tournament and paired again in the next."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="absences")
    round_number = models.PositiveSmallIntegerField(_("round"))
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        ordering = ["round_number"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "round_number"], name="unique_round_absence")
        ]
        verbose_name = _("round absence")
        verbose_name_plural = _("round absences")

    def __str__(self) -> str:
        return f"{self.entry.player} not playing round {self.round_number}"


class EntryChange(models.Model):
    """One field of an entry changed by its organiser: who, when, before and after.

    The history of edits (a typo in a name, a rating, a seed) shown on the organiser's
    page; a re-seed by rating writes one row per entry whose seed moved.
    """

    class Field(models.TextChoices):
        NAME = "name", _("name")
        CLUB = "club", _("club")
        COUNTRY = "country", _("country")
        RATING = "rating", _("rating")
        SEED = "seed", _("seed")

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="changes")
    field = models.CharField(_("field"), max_length=16, choices=Field.choices)
    before = models.CharField(_("before"), max_length=200, blank=True)
    after = models.CharField(_("after"), max_length=200, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("changed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The username kept by an archive import when that user does not exist here.
    changed_by_name = models.CharField(_("changed by (name)"), max_length=150, blank=True)
    changed_at = models.DateTimeField(_("changed at"))

    class Meta:
        ordering = ["-changed_at", "-pk"]
        verbose_name = _("entry change")
        verbose_name_plural = _("entry changes")

    def __str__(self) -> str:
        return f"{self.entry}: {self.field} {self.before!r} → {self.after!r}"

    @property
    def changed_by_label(self) -> str:
        """Who changed it: the user's name, else the name kept by an archive import."""
        return self.changed_by.get_username() if self.changed_by else self.changed_by_name


class ForbiddenPair(models.Model):
    """Two entries the organiser never wants paired (club mates, family, a feud)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    entry_a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    entry_b = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "entry_a", "entry_b"], name="unique_forbidden_pair"
            )
        ]
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")

    def __str__(self) -> str:
        return f"{self.entry_a.player} ≠ {self.entry_b.player}"
