"""The site's ratings: each player's current Glicko-2 values per game, the periods applied,
and one history row per (player, game, period).

The numbers are a pure function of the rated results in order (``ratings.periods.fold``);
these tables keep the result of that fold so pages need not recompute it
(``tournaments.rating.update``). A ``RatedPeriod`` records what was applied (its time, key
and matches) so the next update can tell whether it only appends periods (fold the new ones)
or whether an applied one changed (recompute the game from the start).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.people import Player
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament


class SiteRating(models.Model):
    """A player's current values in one game, after their last period."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="site_ratings")
    game = models.CharField(_("game"), max_length=16)
    rating = models.FloatField(_("rating"))
    rd = models.FloatField(_("rating deviation"))
    volatility = models.FloatField(_("volatility"))
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_at = models.DateTimeField(_("last rated at"))
    last_key_a = models.BigIntegerField()
    last_key_b = models.BigIntegerField()

    class Meta:
        ordering = ["game", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="one_site_rating_per_game")
        ]
        verbose_name = _("site rating")
        verbose_name_plural = _("site ratings")

    def __str__(self) -> str:
        return f"{self.player} {self.game} {self.rating:.0f}"


class RatedPeriod(models.Model):
    """One applied period of a game: a finished round or a rated casual match."""

    game = models.CharField(_("game"), max_length=16)
    at = models.DateTimeField(_("final at"))
    key_a = models.BigIntegerField()
    key_b = models.BigIntegerField()
    # [[player, opponent, score], ...] sorted: what the fold was given.
    matches = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "at", "key_a", "key_b"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "key_a", "key_b"], name="one_rated_period_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} ({self.key_a}, {self.key_b})"


class RatingChange(models.Model):
    """One player's period: values before and after, and the opponents faced with their
    values from before the period, enough to explain the change without recomputing."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(_("game"), max_length=16)
    at = models.DateTimeField(_("final at"))
    key_a = models.BigIntegerField()
    key_b = models.BigIntegerField()
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True)
    casual_match = models.BigIntegerField(null=True, blank=True)
    before_rating = models.FloatField()
    before_rd = models.FloatField()
    before_volatility = models.FloatField()
    after_rating = models.FloatField()
    after_rd = models.FloatField()
    after_volatility = models.FloatField()
    idle_spans = models.PositiveIntegerField(default=0)
    # [{"opponent": id, "name": str, "rating": float, "rd": float, "score": float}, ...]
    games = models.JSONField(default=list)

    class Meta:
        ordering = ["player", "game", "at", "key_a", "key_b"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game", "key_a", "key_b"], name="one_rating_change_per_period"
            )
        ]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self) -> str:
        return f"{self.player} {self.game} {self.after_rating - self.before_rating:+.1f}"

    @property
    def change(self) -> float:
        return self.after_rating - self.before_rating
