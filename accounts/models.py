"""Per-user preferences that must follow a person from one browser to the next.

Terminology: the *profile language* is the interface language a logged-in user chose with
the language switcher. Blank means "never chosen": the browser's cookie or Accept-Language
decides, as for anonymous visitors.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


def language_choices() -> list[tuple[str, str | Promise]]:
    # A callable, so adding a language to settings.LANGUAGES needs no migration.
    return list(settings.LANGUAGES)


class UserProfile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    language = models.CharField(_("language"), max_length=10, choices=language_choices, blank=True)
    email_notifications = models.BooleanField(
        _("email notifications"),
        default=True,
        help_text=_(
            "Email me when a challenge arrives and when it is my move in a correspondence game."
        ),
    )

    class Meta:
        verbose_name = _("user profile")
        verbose_name_plural = _("user profiles")

    def __str__(self) -> str:
        return f"{self.user} ({self.language or '-'})"


#: The longest message a claimant may leave the organiser.
CLAIM_NOTE_MAX = 500


class ClaimNote(models.Model):
    """What a claimant wrote to the organiser with a player claim (optional; the claim
    itself, ``tournaments.PlayerClaim``, belongs to the tournaments app)."""

    claim = models.OneToOneField(
        "tournaments.PlayerClaim",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="note",
        verbose_name=_("claim"),
    )
    text = models.CharField(_("message"), max_length=CLAIM_NOTE_MAX)

    class Meta:
        verbose_name = _("claim message")
        verbose_name_plural = _("claim messages")

    def __str__(self) -> str:
        return self.text[:40]
