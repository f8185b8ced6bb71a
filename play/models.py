"""Play outside tournaments: challenges, public seeks, and the notices sent about them.

Terminology and invariants:
- A *challenge* names its opponent; a *seek* is a challenge with no opponent, open to
  any other user. Both are ``Challenge`` rows; ``opponent`` is null for a seek.
- A challenge is ``open`` until it is accepted (it then points to its battle, created
  by ``games.battles.starting.create_casual_battle``), declined, cancelled or it expires. The
  change from ``open`` is one conditional update, so one challenge makes at most one battle.
- Every offer expires ``OFFER_LIFETIME`` after it was made (``expires_at``, set at
  creation). From that moment it is not *live*: not listed, not acceptable, not counted
  by the limits. ``Challenge.objects.live(now)`` is that rule, and every query of open
  offers goes through it, so an expired offer is dead to the second. The status
  ``expired`` is bookkeeping written a minute later by the beat (``play.expire_offers``),
  never what correctness depends on.
- A quickfire challenge's battle (both battles of its match) ends after ``move_limit``
  moves per side; correspondence has no move limit.
- A challenge with ``rated_match`` makes a *casual match* (``CasualMatch``) when accepted:
  two battles with sides swapped, like a tournament match (see ``play.matches``).
- ``Notice`` remembers every email sent about a battle's turn: unique per (battle, ply,
  user), so the same move never mails twice however often the turn signal fires.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines import registry
from games.models.battle import (
    CASUAL_MOVE_LIMITS,
    DEFAULT_MOVE_LIMIT,
    MAX_CORRESPONDENCE_DAYS,
    Battle,
    game_choices,
)

#: How long a seek or challenge waits for an answer: a quickfire game needs both players
#: at the board now; a correspondence game tolerates a week.
#: Keyed by ``Battle.Timing`` (its values are the strings a form or a row holds).
OFFER_LIFETIME: dict[str, timedelta] = {
    Battle.Timing.QUICKFIRE: timedelta(minutes=15),
    Battle.Timing.CORRESPONDENCE: timedelta(days=7),
}


class ChallengeQuerySet(models.QuerySet):
    def live(self, now: datetime) -> ChallengeQuerySet:
        """Open offers that have not expired at ``now``."""
        return self.filter(status=Challenge.Status.OPEN, expires_at__gt=now)


class Challenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    class First(models.TextChoices):
        CHALLENGER = "challenger", _("I move first")
        OPPONENT = "opponent", _("My opponent moves first")
        RANDOM = "random", _("Random")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_made",
        verbose_name=_("challenger"),
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        null=True,
        blank=True,
        verbose_name=_("opponent"),
    )
    game = models.CharField(
        _("game"),
        max_length=16,
        choices=game_choices,
        default=registry.DEFAULT,
    )
    timing = models.CharField(
        _("timing"),
        max_length=16,
        choices=Battle.Timing.choices,
        default=Battle.Timing.QUICKFIRE,
    )
    days = models.PositiveSmallIntegerField(
        _("days per move"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_CORRESPONDENCE_DAYS)],
    )
    #: Quickfire: the battle ends after this many moves per side (``max_plies`` is twice
    #: it; ``create_casual_battle``). Stored for a correspondence challenge too, unused.
    move_limit = models.PositiveSmallIntegerField(
        _("moves per side"),
        choices=[(n, str(n)) for n in CASUAL_MOVE_LIMITS],
        default=DEFAULT_MOVE_LIMIT,
    )
    # Who plays the game's first side (it moves first): the form asks for the side by
    # the game's own names (``play.forms``), this keeps who moves first.
    first = models.CharField(
        _("who moves first"), max_length=12, choices=First.choices, default=First.RANDOM
    )
    rated_match = models.BooleanField(
        _("rated match (two battles, sides swapped)"),
        default=False,
        help_text=_(
            "Play two battles, the second with the sides swapped, like a tournament match. "
            "The match's result counts for both players' ratings."
        ),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.OPEN
    )
    battle = models.OneToOneField(
        Battle, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    objects = ChallengeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            # The lists of /play/: open offers, newest first, a page at a time.
            models.Index(
                fields=["-created_at", "-id"],
                condition=models.Q(status="open"),
                name="challenge_open_newest",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(days__gte=1, days__lte=MAX_CORRESPONDENCE_DAYS),
                name="challenge_days_in_range",
            ),
            models.CheckConstraint(
                condition=~models.Q(opponent=models.F("challenger")),
                name="challenge_not_self",
            ),
            models.CheckConstraint(
                condition=models.Q(move_limit__in=CASUAL_MOVE_LIMITS),
                name="challenge_move_limit_offered",
            ),
        ]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")

    def __str__(self) -> str:
        return f"{self.challenger} → {self.opponent or '*'} ({self.game})"

    @property
    def is_seek(self) -> bool:
        return self.opponent_id is None

    def is_expired(self, now: datetime) -> bool:
        return self.expires_at <= now


class Notice(models.Model):
    """An email sent about a battle's turn (at most one per battle, ply and user)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["battle", "ply", "user"], name="one_notice_per_turn"),
        ]


class CasualMatchQuerySet(models.QuerySet):
    def rated_ended(self, game: str) -> CasualMatchQuerySet:
        """The rated matches of ``game`` played to the end (they have a result)."""
        return self.filter(game=game, rated=True, status=CasualMatch.Status.ENDED)

    def between_people(self) -> CasualMatchQuerySet:
        """The matches whose two users are people (``play.bots``: a user without a profile
        row is one): what the people's ratings read."""
        # ``exclude`` keeps a user with no profile row (its flag is NULL, not true).
        return self.exclude(user_a__profile__is_bot=True).exclude(user_b__profile__is_bot=True)

    def between_bots(self) -> CasualMatchQuerySet:
        """The matches whose two users are bot accounts: what the engine league reads."""
        return self.filter(user_a__profile__is_bot=True, user_b__profile__is_bot=True)


class CasualMatch(models.Model):
    """Two casual battles with sides swapped between two users, like a tournament match.

    Invariants (kept by ``play.matches``):
    - ``user_a`` has the first side in battle 1 and the second side in battle 2;
      ``battle_2`` exists from the end of battle 1 (its board seed is battle 1's).
    - ``status`` leaves ``playing`` once: ``ended`` with ``ended_at`` and
      ``differential_a`` (A's summed points minus B's, scored as a tournament match is),
      or ``cancelled`` (battle 1 nobody played: a no-show) with neither.
    - ``rated`` is whether the match counts for the ratings. A match asked for rated is
      played unrated when its pair already has ``play.matches.RATED_PER_PERIOD`` rated
      matches of the game in the last ``RATING_PERIOD`` (``unrated_reason`` "limit",
      decided when it is created), or ends unrated when no move was played in it
      (``unrated_reason`` "unplayed", written with its result). A match between a bot
      account and a person (``play.bots``) is never rated (``unrated_reason`` "bot",
      decided when it is created); two bots' match is rated.
    - ``no_show_by``: the player who never joined battle 2; they lose the match (their
      opponent's differential is battle 1's, at least 1), it ends and is rated as usual.
    """

    class UnratedReason(models.TextChoices):
        NONE = "", _("rated, or asked for unrated")
        LIMIT = "limit", _("rated matches against this opponent used up for the period")
        UNPLAYED = "unplayed", _("no move was played")
        BOT = "bot", _("a bot account against a person")

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        ENDED = "ended", _("Ended")
        CANCELLED = "cancelled", _("Cancelled")

    user_a = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    user_b = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(_("game"), max_length=16)
    rated = models.BooleanField(_("rated"), default=True)
    battle_1 = models.OneToOneField(Battle, on_delete=models.PROTECT, related_name="+")
    battle_2 = models.OneToOneField(
        Battle, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PLAYING
    )
    created_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    differential_a = models.IntegerField(null=True, blank=True)
    unrated_reason = models.CharField(
        max_length=12, choices=UnratedReason.choices, default=UnratedReason.NONE, blank=True
    )
    no_show_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    objects = CasualMatchQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(user_a=models.F("user_b")), name="casual_match_two_users"
            ),
            # A result exactly when the match ended.
            models.CheckConstraint(
                condition=(
                    models.Q(status="ended", ended_at__isnull=False, differential_a__isnull=False)
                    | (
                        ~models.Q(status="ended")
                        & models.Q(ended_at__isnull=True, differential_a__isnull=True)
                    )
                ),
                name="casual_match_result_iff_ended",
            ),
        ]
        indexes = [
            models.Index(
                fields=["game", "ended_at", "id"],
                condition=models.Q(status="ended", rated=True),
                name="casual_match_rated_ended",
            ),
        ]
        verbose_name = _("casual match")
        verbose_name_plural = _("casual matches")

    def __str__(self) -> str:
        return f"{self.user_a} – {self.user_b} ({self.game})"

    def number_of(self, battle_id: int) -> int:
        """1 or 2: which of this match's battles ``battle_id`` is."""
        return 1 if battle_id == self.battle_1_id else 2

    @property
    def margin(self) -> int | None:
        """The winner's differential (the absolute value of ``differential_a``)."""
        return None if self.differential_a is None else abs(self.differential_a)

    @property
    def winner(self):
        """The user who won the match (``None``: a draw or no result)."""
        if not self.differential_a:
            return None
        return self.user_a if self.differential_a > 0 else self.user_b
