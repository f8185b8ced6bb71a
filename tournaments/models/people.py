"""The people: players (who may be linked to a user account) and claims to be one.

A ``PlayerClaim`` is a registered user asking to be linked to a ``Player``; an organiser
approves or rejects it, and a player has at most one pending claim.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    # An ISO 3166-1 alpha-2 code, shown by name in the reader's language
    # (``tournaments.models.countries`` reads one from a name or code typed);
    # ``str(player.country)`` is the code, ``player.country.name`` the name.
    country = CountryField(_("country"), blank=True)
    # What the free-text country held before codes (migration 0021) when it named no
    # country: kept, not lost; shown in the admin.
    country_as_typed = models.CharField(
        _("country as typed before codes"), max_length=64, blank=True, editable=False
    )
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class PlayerClaim(models.Model):
    """A registered user asking to be linked to a Player; an organiser decides."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=models.Q(status="pending"),
                name="one_pending_claim_per_player",
            )
        ]
