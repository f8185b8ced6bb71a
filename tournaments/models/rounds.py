"""Rounds and their matches.

A *match* pairs two entries (A and B) for two *battles*; A has the first side in battle 1
and the second side in battle 2. A match with no B is a *bye*. The match points at the
latest confirmed result version (``Match.confirmed_version``), which standings read.
``Match.lock_version`` is bumped by every result write; writers compare-and-set it so two
referees can never silently overwrite each other.

*Counted* rounds are the published and finished ones (``lifecycle.PUBLIC``): public, and
counted in the standings; ``Round.objects.counted()`` and ``Match.objects.counted()`` are
the one spelling of that filter. What counts across the site (its statistics) leaves out
the copies (``Match.objects.sitewide()``): a copy counts only on its own pages.
"""

from __future__ import annotations

from datetime import datetime

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Entry, Tournament
from tournaments.pairing import elimination
from tournaments.rules import lifecycle, timer


class RoundQuerySet(models.QuerySet["Round"]):
    def counted(self) -> RoundQuerySet:
        """Published and finished rounds: public, and counted in the standings."""
        return self.filter(status__in=lifecycle.PUBLIC)


class Round(models.Model):
    """A round; its lifecycle (draft → published → finished) is ``tournaments.rules.lifecycle``."""

    class Status(models.TextChoices):
        DRAFT = lifecycle.DRAFT, _("Draft")
        PUBLISHED = lifecycle.PUBLISHED, _("Published")
        FINISHED = lifecycle.FINISHED, _("Finished")

    class Stage(models.TextChoices):
        MAIN = elimination.MAIN, _("Main stage")
        KNOCKOUT = elimination.KNOCKOUT, _("Knockout")
        PLAYOFF = elimination.PLAYOFF, _("Playoff")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("number"))
    # Swiss and round-robin rounds are the main stage; a single-elimination tournament and
    # a Swiss top cut play knockout rounds, and playoff rounds for drawn knockout matches.
    stage = models.CharField(_("stage"), max_length=16, choices=Stage.choices, default=Stage.MAIN)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT
    )
    seed = models.BigIntegerField(_("pairing seed"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    # When the round became finished (the next round paired, or the tournament closed):
    # the time of its rating period (``tournaments.rating``).
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # The round timer (``tournaments.rules.timer``): started by the organiser, shown on
    # the hall screen; no start, no timer.
    timer_started_at = models.DateTimeField(_("round timer started at"), null=True, blank=True)
    timer_minutes = models.PositiveSmallIntegerField(
        _("round time (minutes)"), null=True, blank=True
    )

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")
        ]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return f"{self.tournament} – {_('round')} {self.number}"

    @property
    def timer_ends_at(self) -> datetime | None:
        """When the round timer reaches zero (``None``: not started)."""
        if self.timer_started_at is None or not self.timer_minutes:
            return None
        return timer.ends_at(self.timer_started_at, self.timer_minutes)


class MatchQuerySet(models.QuerySet["Match"]):
    def counted(self) -> MatchQuerySet:
        """Matches of published and finished rounds (``RoundQuerySet.counted``)."""
        return self.filter(round__status__in=lifecycle.PUBLIC)

    def sitewide(self) -> MatchQuerySet:
        """``counted`` matches that count for the whole site (its statistics): none of a
        copy, an import of a tournament the site already holds (``archive.copies``)."""
        return self.counted().filter(round__tournament__copy_of__isnull=True)


class Match(models.Model):
    class ResultStatus(models.TextChoices):
        AWAITING = "awaiting", _("Awaiting result")
        ENTERED = "entered", _("Entered, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField(_("table"))
    player_a = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="matches_as_a",
        verbose_name=_("player A (first side in battle 1)"),
    )
    player_b = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="matches_as_b",
        null=True,
        blank=True,
        verbose_name=_("player B (second side in battle 1)"),
    )
    flags = models.JSONField(_("pairing notes"), default=list, blank=True)
    result_status = models.CharField(
        _("result status"),
        max_length=16,
        choices=ResultStatus.choices,
        default=ResultStatus.AWAITING,
    )
    confirmed_version = models.ForeignKey(
        "ResultVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    lock_version = models.PositiveIntegerField(default=0)
    # Set when the first battle of the match is created: from then on its pairing is
    # frozen (tournaments.rules.lifecycle), like a match with a result version.
    play_started_at = models.DateTimeField(_("play started at"), null=True, blank=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="unique_table_per_round")
        ]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        b = self.player_b.player.name if self.player_b else _("bye")
        return f"{self.round} T{self.table}: {self.player_a.player.name} – {b}"

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    @property
    def is_finished(self) -> bool:
        return self.is_bye or self.result_status == self.ResultStatus.CONFIRMED
