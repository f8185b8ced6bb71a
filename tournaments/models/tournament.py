"""A tournament, its settings and its entries (a player's participation); what hangs off an
entry is ``tournaments.models.entries``.

The settings fix the game, the format (Swiss, round robin, single elimination, a Swiss top
cut), the variant and its clock, the match points and the tiebreak order.
"""

from __future__ import annotations

import secrets
import zoneinfo

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.people import Player
from tournaments.models.wording import capture_policy_choices, game_choices, words
from tournaments.pairing import elimination, formats
from tournaments.rules.scales import scale_of
from tournaments.standings import tiebreaks

#: The game a new tournament plays unless its organiser picks another; the site-wide statistics
#: pages are of this game (a key of the registered game scales).
DEFAULT_GAME = "thud"

DEFAULT_TIEBREAKS = list(tiebreaks.KEYS)


def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA zone name the server knows (``zoneinfo``), sorted: the settings' select."""
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


def default_time_zone() -> str:
    return settings.TIME_ZONE


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = formats.SWISS, _("Swiss")
        ROUND_ROBIN = formats.ROUND_ROBIN, _("Round robin")
        SINGLE_ELIMINATION = formats.SINGLE_ELIMINATION, _("Single elimination")

    class Variant(models.TextChoices):
        CLASSIC = "classic", _("Classic (no limit, no clock)")
        QUICKFIRE_24 = "quickfire24", _("Quickfire, 24 moves")
        QUICKFIRE_30 = "quickfire30", _("Quickfire, 30 moves")
        TIMED_24 = "timed24", _("Timed quickfire, 24 moves, 15 s + 5 s")
        TIMED_30 = "timed30", _("Timed quickfire, 30 moves, 15 s + 5 s")

    class CapturePolicy(models.TextChoices):
        # The values; the game that has the option names them (``capture_policy_choices``).
        SUBSET = "subset"
        ALL_OR_NONE = "all_or_none"
        ALL = "all"

    class MoveUnit(models.TextChoices):
        SIDE = "side", _("Moves per side")
        PLY = "ply", _("Total plies")

    class CommitRule(models.TextChoices):
        TOUCH = "touch", _("Touching a piece ends thinking time")
        NONE = "none", _("No touch rule")

    class DrawRule(models.TextChoices):
        PLAYOFF = elimination.RULE_PLAYOFF, _("A playoff match decides")
        HIGHER_SEED = elimination.RULE_HIGHER_SEED, _("The higher seed advances")

    class Status(models.TextChoices):
        SETUP = "setup", _("Setting up")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    format = models.CharField(
        _("format"), max_length=24, choices=Format.choices, default=Format.SWISS
    )
    rounds = models.PositiveSmallIntegerField(
        _("number of rounds"), default=5, validators=[MinValueValidator(1)]
    )
    # Swiss then knockout: the top ``top_cut`` of the Swiss standings play a bracket
    # (tournaments.pairing.elimination). 0 = no knockout stage.
    top_cut = models.PositiveSmallIntegerField(
        _("top cut"),
        default=0,
        choices=[
            (0, _("No knockout stage")),
            (2, _("Top 2 (a final)")),
            (4, _("Top 4")),
            (8, _("Top 8")),
        ],
        help_text=_("After the last Swiss round, the best players play a knockout bracket."),
    )
    knockout_draw_rule = models.CharField(
        _("drawn knockout match"),
        max_length=16,
        choices=DrawRule.choices,
        default=DrawRule.PLAYOFF,
        help_text=_(
            "A playoff is another two battles between the same players, repeated until "
            "one of them wins."
        ),
    )
    # The game every match plays (``games.engines.registry``, handed down as result scales):
    # fixed once a round is paired (``settings_rules.locked_fields``). Every game uses
    # the tournament's variant and clock alike: classic = untimed and unlimited; the
    # quickfire variants' move limit counts plies of either game (a Cavalli game cut
    # short keeps the points reached, like a Thud battle keeps its survivors); a timed
    # variant times each turn with ``think_ms`` + ``move_ms`` and the touch rule (in
    # Cavalli a player has one piece, so touching it only ends the thinking time).
    # The capture policy is Thud's and is ignored by other games.
    game = models.CharField(_("game"), max_length=16, choices=game_choices, default=DEFAULT_GAME)
    variant = models.CharField(
        _("variant"), max_length=16, choices=Variant.choices, default=Variant.CLASSIC
    )
    capture_policy = models.CharField(
        _("capture policy"),
        max_length=16,
        choices=capture_policy_choices,
        default=CapturePolicy.SUBSET,
    )
    record_otb_moves = models.BooleanField(
        _("referees enter the moves of battles played over the board"),
        default=False,
        help_text=_(
            "After an over-the-board battle, a referee may type in its moves; they are "
            "checked against the rules and kept in the game record."
        ),
    )
    # Locked once round 1 is paired (``organising.settings_changes``): the finished rounds'
    # confirmed matches count for the site's ratings (``tournaments.rating``).
    rated = models.BooleanField(
        _("rated"),
        default=True,
        help_text=_("The results of finished rounds count for the players' site ratings."),
    )
    # Whether the organiser may enter bot accounts (``organising.bots``); off while a bot
    # plays here is refused (``settings_changes.check_allow_bots``). A bot's matches are never
    # rated (``rating.sources``), whatever ``rated`` says.
    allow_bots = models.BooleanField(
        _("bot accounts may be entered"),
        default=False,
        help_text=_(
            "The organiser may enter bot accounts (programs playing through the API) as "
            "players; their matches never count for anyone's rating."
        ),
    )
    # Written from an archive (``tournaments.archive``): even when a site administrator marks
    # it rated, only its matches between two claimed entries count (``rating.sources``).
    imported = models.BooleanField(_("imported from an archive"), default=False, editable=False)
    # The identity of the archive it was imported from (``archive.identity``; "" for a
    # tournament made here, whose identity is computed from its content when an archive is
    # compared with it: ``archive.copies``).
    fingerprint = models.CharField(
        _("archive fingerprint"), max_length=64, blank=True, db_index=True, editable=False
    )
    # An import of a tournament this site already holds (``archive.copies``): never rated
    # (``copy_never_rated``), counted in no site statistic. PROTECT: deleting the original
    # would turn its copies into tournaments that count.
    copy_of = models.ForeignKey(
        "self",
        verbose_name=_("copy of"),
        null=True,
        blank=True,
        editable=False,
        on_delete=models.PROTECT,
        related_name="copies",
    )
    points_win = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("match points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("match points for a loss"), default=0)
    tiebreaks = models.JSONField(_("tiebreak order"), default=list, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.SETUP
    )
    pairing_seed = models.BigIntegerField(_("pairing seed"), default=0)
    # Quickfire clock settings (DESIGN.md §5); used only by timed variants.
    move_unit = models.CharField(
        _("move limit unit"), max_length=8, choices=MoveUnit.choices, default=MoveUnit.SIDE
    )
    think_ms = models.PositiveIntegerField(_("thinking time (ms)"), default=15_000)
    move_ms = models.PositiveIntegerField(_("moving time (ms)"), default=5_000)
    grace_ms = models.PositiveIntegerField(_("grace (ms)"), default=300)
    commit_rule = models.CharField(
        _("touch rule"), max_length=8, choices=CommitRule.choices, default=CommitRule.TOUCH
    )
    max_consecutive_forfeits = models.PositiveSmallIntegerField(
        _("consecutive forfeits before a referee is called"), default=3
    )
    outage_threshold_ms = models.PositiveIntegerField(
        _("late expiry that pauses instead of forfeiting (ms)"), default=3_000
    )
    # With check-in required, only checked-in entries are paired (``pairing.attendance``).
    # The model's default keeps tournaments made by scripts, imports and older code as they
    # were; the new-tournament form offers it switched on.
    check_in_required = models.BooleanField(_("check-in required"), default=False)
    # How long an online battle waits for the second player after the first joined, before
    # the one who came may claim a no-show (``games.presence``).
    join_window_s = models.PositiveIntegerField(
        _("time to join (seconds)"),
        default=60,
        validators=[MinValueValidator(10), MaxValueValidator(3600)],
    )
    # What the hall screen shows the audience between the pairings and the standings.
    announcement = models.TextField(_("announcement"), max_length=500, blank=True)
    # Every time on the tournament's pages is shown in this zone (the venue's), through
    # ``tournaments.web.time_zones``; stored times stay in UTC.
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        choices=time_zone_choices,
        default=default_time_zone,
        help_text=_("The venue's time zone: every time on the tournament's pages is shown in it."),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organiser"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organised_tournaments",
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("referees"),
        blank=True,
        related_name="refereed_tournaments",
    )
    # Co-organisers organise the tournament like its owner; only the owner (or a
    # superuser) appoints or removes them (tournaments.permissions).
    co_organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("co-organisers"),
        blank=True,
        related_name="co_organised_tournaments",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Changes whenever the public pages would (``models.state_version``): their cache key.
    # Written only by ``bump_state_version`` and its kin, never by ``save`` (below).
    state_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(copy_of__isnull=True) | models.Q(rated=False),
                name="copy_never_rated",
                violation_error_message=_(
                    "A copy of a tournament already on this site is never rated."
                ),
            )
        ]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """Save, leaving ``state_version`` alone unless ``update_fields`` names it: an
        instance loaded before a bump must not write its old number back (a settings
        form, the admin). An insert writes every field."""
        existing = not self._state.adding and not kwargs.get("force_insert") and not args
        if existing and kwargs.get("update_fields") is None:
            deferred = self.get_deferred_fields()
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "state_version" and f.attname not in deferred
            ]
        super().save(*args, **kwargs)

    @property
    def tiebreak_order(self) -> list[str]:
        return list(self.tiebreaks) or list(DEFAULT_TIEBREAKS)

    @property
    def words(self) -> dict[str, str]:
        """The texts that name this game's sides on the pages (``GameScale.wording``),
        translated: ``{{ tournament.words.pairing_note }}``."""
        return words(scale_of(self.game))

    @property
    def is_copy(self) -> bool:
        """Imported although this site already held it (``copy_of``): counted nowhere."""
        return self.copy_of_id is not None

    @property
    def has_knockout(self) -> bool:
        """Whether the tournament plays (or will play) a knockout bracket."""
        return self.format == self.Format.SINGLE_ELIMINATION or self.top_cut > 0

    @property
    def move_limit(self) -> int | None:
        """Moves allowed per battle in the configured unit, or None for classic."""
        limits: dict[str, int] = {
            self.Variant.QUICKFIRE_24: 24,
            self.Variant.QUICKFIRE_30: 30,
            self.Variant.TIMED_24: 24,
            self.Variant.TIMED_30: 30,
        }
        return limits.get(self.variant)

    @property
    def max_plies(self) -> int | None:
        limit = self.move_limit
        if limit is None:
            return None
        return limit * 2 if self.move_unit == self.MoveUnit.SIDE else limit

    @property
    def is_timed(self) -> bool:
        return self.variant in (self.Variant.TIMED_24, self.Variant.TIMED_30)


def new_personal_token() -> str:
    """A fresh secret for a personal link: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


class Entry(models.Model):
    """A player's participation in one tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(_("seed"), default=0)
    checked_in = models.BooleanField(_("checked in"), default=False)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    withdrawn_from_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"),
        null=True,
        blank=True,
        help_text=_("Not paired from this round on."),
    )
    late_from_round = models.PositiveSmallIntegerField(
        _("late entry at round"),
        null=True,
        blank=True,
        help_text=_("First round this player is paired in."),
    )
    initial_points = models.PositiveSmallIntegerField(
        _("match points on entry"),
        default=0,
        help_text=_("Match points a late entry starts with."),
    )
    # The place in the knockout bracket (1 = best), fixed when the knockout starts.
    knockout_seed = models.PositiveSmallIntegerField(_("knockout seed"), null=True, blank=True)
    # The secret of the player's personal link (/p/<token>/, no login): whoever holds it
    # sees this entry's own page. Revoking it draws a new one; the old link answers 404.
    personal_token = models.CharField(
        _("personal link token"), max_length=32, unique=True, default=new_personal_token
    )

    class Meta:
        ordering = ["seed", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_entry")
        ]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"
