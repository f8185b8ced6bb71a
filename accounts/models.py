"""Per-user preferences that must follow a person from one browser to the next.

Terminology: the *profile language* is the interface language a logged-in user chose with
the language switcher. Blank means "never chosen": the browser's cookie or Accept-Language
decides, as for anonymous visitors.

A *bot account* (``is_bot``) is one a program plays through the API. Its owner turns the
flag on once, before the account has played (``play.bots.become_bot`` decides when, as it
must ask the games); it is never turned off. A user without a profile row is no bot.
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
    is_bot = models.BooleanField(_("bot account"), default=False, editable=False)
    became_bot_at = models.DateTimeField(_("became a bot account"), null=True, editable=False)

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


class TokenScope(models.TextChoices):
    """What a personal access token may be used for: the one list of scopes, with the
    labels the account page shows. A scope only narrows a token; it never grants what the
    account itself may not do (the API's views pass the token's user through the same
    permission gates as the pages)."""

    READ = "read", _("Read: your games, tournaments and ratings")
    PLAY = "play", _("Play: make moves and answer challenges in your games")
    BOT = "bot", _("Bot: let a program play as this account")
    TOURNAMENT_ADMIN = "tournament:admin", _("Tournament administration: run your tournaments")


#: A token's name is a reminder for its owner ("laptop script", "club bot").
TOKEN_NAME_MAX = 60
#: Visible part of a token kept in clear, to recognise it in the list: ``thud_`` + 8 chars.
TOKEN_PREFIX_LENGTH = 13


class PersonalAccessToken(models.Model):
    """A token its owner made on the account page (``accounts.tokens``): the secret is kept
    only as its SHA-256 hash; the plain token was shown once, when it was made. A revoked
    token stays listed (when, by whom it was used last) and is refused."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="access_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=TOKEN_NAME_MAX)
    scopes = models.JSONField(_("scopes"), default=list)
    prefix = models.CharField(_("prefix"), max_length=TOKEN_PREFIX_LENGTH)
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"))
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("personal access token")
        verbose_name_plural = _("personal access tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None
