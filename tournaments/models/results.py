"""Result versions: each one immutable statement of a match's result.

A version records the four numbers of both battles (``MatchResult``, on the scale of the
tournament's game). Versions are never edited or deleted: a correction is a new version.
The match points at the latest confirmed version (``Match.confirmed_version``).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import Match
from tournaments.models.tournament import DEFAULT_GAME
from tournaments.rules.result import MatchResult
from tournaments.rules.scales import FIELDS, MAX_RESULT_NUMBER


def range_check(name: str) -> models.CheckConstraint:
    """The database's own bound of the four numbers, whatever the game: at most
    ``MAX_RESULT_NUMBER``. It names no game, so a new game needs no migration; each game's
    own limits are its scale's, checked by ``MatchResult`` at every write (``new_version``
    and the bulk writes take a ``MatchResult``; the archive's validation builds one)."""
    return models.CheckConstraint(
        condition=models.Q(**{f"{field}__lte": MAX_RESULT_NUMBER for field in FIELDS}), name=name
    )


class ResultVersion(models.Model):
    """One immutable statement of a match result (the numbers of both battles)."""

    class Source(models.TextChoices):
        REFEREE = "referee", _("Referee")
        PLAYER = "player", _("Player")
        ORGANISER = "organiser", _("Organiser")
        IMPORT = "import", _("Import")
        ENGINE = "engine", _("Engine-verified online play")

    class Kind(models.TextChoices):
        ENTRY = "entry", _("Entry")
        CORRECTION = "correction", _("Correction")
        DECISION = "decision", _("Organiser's final decision")

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        SUPERSEDED = "superseded", _("Superseded")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(_("version"))
    # The game of the match's tournament, copied so that a version knows its scale
    # (``MatchResult``) without a join; the four numbers follow that game's scale.
    game = models.CharField(_("game"), max_length=16, default=DEFAULT_GAME)
    battle1_first = models.PositiveSmallIntegerField(
        _("battle 1, first side"), validators=[MaxValueValidator(MAX_RESULT_NUMBER)]
    )
    battle1_second = models.PositiveSmallIntegerField(
        _("battle 1, second side"), validators=[MaxValueValidator(MAX_RESULT_NUMBER)]
    )
    battle2_first = models.PositiveSmallIntegerField(
        _("battle 2, first side"), validators=[MaxValueValidator(MAX_RESULT_NUMBER)]
    )
    battle2_second = models.PositiveSmallIntegerField(
        _("battle 2, second side"), validators=[MaxValueValidator(MAX_RESULT_NUMBER)]
    )
    source = models.CharField(_("source"), max_length=16, choices=Source.choices)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.ENTRY)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    reason = models.TextField(_("reason"), blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    # The author's username when the version came from another installation's archive
    # where that user does not exist here (``entered_by`` is then empty): the history
    # still names them. Likewise ``confirmed_by_name``.
    entered_by_name = models.CharField(_("entered by (name)"), max_length=150, blank=True)
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    confirmed_by_name = models.CharField(_("confirmed by (name)"), max_length=150, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_version_number"),
            # The bound of any game's numbers; each game's limits are its MatchResult's.
            range_check("survivors_in_range"),
        ]
        verbose_name = _("result version")
        verbose_name_plural = _("result versions")

    def __str__(self) -> str:
        return f"{self.match} v{self.number}"

    @property
    def survivors(self) -> MatchResult:
        return MatchResult(
            self.battle1_first,
            self.battle1_second,
            self.battle2_first,
            self.battle2_second,
            game=self.game,
        )

    @property
    def entered_by_label(self) -> str:
        """Who entered it, for the history: the user's name, else the name kept by an
        archive import, else ""."""
        return self.entered_by.get_username() if self.entered_by else self.entered_by_name

    @property
    def confirmed_by_label(self) -> str:
        return self.confirmed_by.get_username() if self.confirmed_by else self.confirmed_by_name

    @property
    def stands_alone(self) -> bool:
        """Confirmed by the person who entered it: only an organiser's decision may."""
        return self.kind == self.Kind.DECISION


class SubmissionKey(models.Model):
    """The idempotency key of one result submission, stored with the version it made.

    A form carries a fresh key (made when the page renders it, or by the page's script when
    it keeps the submission on the device to send later); the write and this row commit
    together, so a repeat of the key (a retry, a double tap, a second tab replaying the same
    queued entry) finds the row and gets the same version back instead of a second one.
    """

    class Kind(models.TextChoices):
        ENTRY = "entry", _("Entry")
        CONFIRMATION = "confirmation", _("Confirmation")

    key = models.CharField(_("key"), max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    # Null only inside the transaction that inserts the row and then makes the version.
    version = models.ForeignKey(
        ResultVersion, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("submission key")
        verbose_name_plural = _("submission keys")

    def __str__(self) -> str:
        return self.key
