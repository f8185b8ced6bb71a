"""Account forms: a rate-limited login, self-registration and player claims.

The login limit counts failed attempts per (username, client address) in the cache
(Redis), in a fixed window that starts with the first failure: after
``LOGIN_MAX_FAILURES`` failures even the right password is refused until the window
ends, so guessing a password costs hours, not seconds. A success clears the count.
"""

from __future__ import annotations

import hashlib

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import Player, PlayerClaim

LOGIN_MAX_FAILURES = 5
LOGIN_WINDOW_S = 300


def _failures_key(username: str, request: HttpRequest | None) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is client-controlled unless a proxy rewrites it.
    address = request.META.get("REMOTE_ADDR", "") if request is not None else ""
    digest = hashlib.sha256(f"{username.strip().lower()}|{address}".encode()).hexdigest()
    return f"login-failures:{digest}"


class RateLimitedAuthenticationForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "rate_limited": _(
            "Too many failed log-in attempts for this account from your address. "
            "Try again in 5 minutes."
        ),
    }

    def clean(self):
        key = _failures_key(self.cleaned_data.get("username") or "", self.request)
        if cache.get(key, 0) >= LOGIN_MAX_FAILURES:
            raise ValidationError(self.error_messages["rate_limited"], code="rate_limited")
        try:
            cleaned = super().clean()
        except ValidationError:
            cache.add(key, 0, LOGIN_WINDOW_S)  # starts the window on the first failure
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, LOGIN_WINDOW_S)
            raise
        cache.delete(key)
        return cleaned


def claimable_players() -> QuerySet[Player]:
    """Players no account is linked to and nobody has a pending claim on."""
    return Player.objects.filter(user__isnull=True).exclude(
        claims__status=PlayerClaim.Status.PENDING
    )


class PlayerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return ", ".join(x for x in (obj.name, obj.club, obj.country) if x)


class ClaimForm(forms.Form):
    player = PlayerChoiceField(
        label=_("I am this player"),
        queryset=Player.objects.none(),
        help_text=_("A tournament organiser checks and approves your claim."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = claimable_players()


class RegistrationForm(UserCreationForm):
    player = PlayerChoiceField(
        label=_("I am this player (optional)"),
        queryset=Player.objects.none(),
        required=False,
        help_text=_("A tournament organiser checks and approves your claim."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = claimable_players()
