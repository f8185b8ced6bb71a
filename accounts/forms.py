"""Account forms: rate-limited logins (site and admin), self-registration and player claims.

The login limit counts attempts per (username, client address) with ``thud_site.limits``
(Redis, or each process's memory while Redis is down), in a fixed window that starts with
the first attempt. Each attempt is counted *before* its
password is checked, with one atomic increment, so parallel guesses cannot all read "below
the limit" and slip through together: at most ``LOGIN_MAX_FAILURES`` passwords are ever
checked per window. Beyond that even the right password is refused, unchecked, until the
window ends, so guessing a password costs hours, not seconds. A success clears the count.

The site's login page and the admin's login share one limiter (same key), so the two pages
do not give a guesser two budgets.

Registration is limited per client address (``REGISTRATIONS_PER_ADDRESS`` an hour), counted
the same way: once the form is otherwise valid and before the account is saved, so a
mistyped password costs nothing and parallel posts cannot create more than the limit.

The client address is ``REMOTE_ADDR`` unless ``THUD_CLIENT_IP_HEADER`` names a header that a
trusted reverse proxy sets (see ``client_address``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import claims
from accounts.models import CLAIM_NOTE_MAX
from accounts.usernames import validate_not_look_alike
from thud_site import limits
from tournaments.models.people import Player

LOGIN_MAX_FAILURES = 5
LOGIN_WINDOW_S = 300
LOGIN_SCOPE = "login-failures"
REGISTRATIONS_PER_ADDRESS = 5
REGISTRATION_WINDOW_S = 3600
REGISTRATION_SCOPE = "registrations"


def client_address(request: HttpRequest | None) -> str:
    """The address the login limit is keyed on.

    ``THUD_CLIENT_IP_HEADER`` is a ``request.META`` name (``REMOTE_ADDR`` by default). A
    forwarding header such as ``HTTP_X_FORWARDED_FOR`` is a list the client may pre-fill
    with anything; each proxy appends the address it saw. So we count
    ``THUD_TRUSTED_PROXY_COUNT`` entries from the right: that entry was written by our
    outermost trusted proxy, everything left of it is the client's word.
    """
    if request is None:
        return ""
    header = settings.THUD_CLIENT_IP_HEADER
    value = request.META.get(header, "")
    if header == "REMOTE_ADDR" or not value:
        # A request that bypassed the proxy has no header: fall back to the socket.
        return value or request.META.get("REMOTE_ADDR", "")
    entries = [e.strip() for e in value.split(",") if e.strip()]
    if not entries:
        return request.META.get("REMOTE_ADDR", "")
    # Fewer entries than proxies: every entry came from a proxy, the leftmost is the client.
    return entries[-min(settings.THUD_TRUSTED_PROXY_COUNT, len(entries))]


def _attempts_key(username: str, request: HttpRequest | None) -> str:
    return f"{username.strip().lower()}|{client_address(request)}"


if TYPE_CHECKING:
    _LoginForm = AuthenticationForm
else:
    _LoginForm = object


class LoginLimitMixin(_LoginForm):
    """Counts the attempt, then checks the password only while under the limit."""

    rate_limited_message = _(
        "Too many failed log-in attempts for this account from your address. "
        "Try again in 5 minutes."
    )

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is None or not password:
            # A field is missing: AuthenticationForm checks no password, nothing to count.
            return super().clean()
        key = _attempts_key(username, self.request)
        if limits.count(LOGIN_SCOPE, key, window_s=LOGIN_WINDOW_S) > LOGIN_MAX_FAILURES:
            raise ValidationError(self.rate_limited_message, code="rate_limited")
        cleaned = super().clean()  # a wrong password raises and leaves the attempt counted
        # The right password within the limit proves the owner is here: forget the
        # mistakes. (Past the limit we never get here, so a success cannot reopen it.)
        limits.forget(LOGIN_SCOPE, key)
        return cleaned


class RateLimitedAuthenticationForm(LoginLimitMixin, AuthenticationForm):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _("The name you chose when you created your account.")
        self.fields["password"].help_text = _("Forgotten it? Use the reset link below the form.")


class RateLimitedAdminAuthenticationForm(LoginLimitMixin, AdminAuthenticationForm):
    pass


class PlayerChoiceField(forms.ModelChoiceField):
    """A claimable player, offered in two groups labelled with their tournaments and club
    (``accounts.claims.claim_groups``); ``nothing_to_claim`` when there is none."""

    def __init__(self, **kwargs) -> None:
        super().__init__(queryset=Player.objects.none(), **kwargs)
        self.nothing_to_claim = True

    def offer_claimable(self) -> None:
        players = claims.claimable_players()
        self.queryset = players
        current, finished = claims.claim_groups(claims.claimable_records(players))
        groups = [
            (_("Tournaments under way or to come"), current),
            (_("Finished tournaments"), finished),
        ]
        self.choices = [("", _("Choose your name"))] + [(g, c) for g, c in groups if c]
        self.nothing_to_claim = not (current or finished)


CLAIM_HELP = _(
    "Each entry reads: name — tournaments (club, country). An organiser checks your claim "
    "before your results appear under your account."
)


class ClaimForm(forms.Form):
    player = PlayerChoiceField(label=_("I am this player"), help_text=CLAIM_HELP)
    message = forms.CharField(
        label=_("Anything the organiser should know (optional)"),
        max_length=CLAIM_NOTE_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # self.fields holds this form's copies of the declared fields, typed as plain Fields.
        self.player_field.offer_claimable()
        # Worded when the form is made, in the request's language (a lazy string's % is not).
        self.fields["message"].help_text = gettext(
            "For example the club you played for then, or another name you were entered "
            "under. At most %(n)d characters."
        ) % {"n": CLAIM_NOTE_MAX}

    @property
    def player_field(self) -> PlayerChoiceField:
        return cast(PlayerChoiceField, self.fields["player"])

    @property
    def nothing_to_claim(self) -> bool:
        return self.player_field.nothing_to_claim


# Django's own help lists every password rule as HTML; one sentence says what matters.
REGISTRATION_WORDS = {
    "username": (
        _("Username"),
        _(
            "The name you log in with and others see, e.g. anna_b: letters, digits and "
            "@ . + - _ only, at most 150 characters."
        ),
    ),
    "password1": (
        _("Password"),
        _(
            "At least 8 characters, not like your username, not only digits and not a "
            "common password, e.g. three unrelated words."
        ),
    ),
    "password2": (
        _("Password again"),
        _("The same password once more, to catch a typing mistake."),
    ),
}


class RegistrationForm(UserCreationForm):
    player = PlayerChoiceField(
        label=_("I am this player (optional)"), required=False, help_text=CLAIM_HELP
    )
    rate_limited_message = _(
        "Too many accounts have been created from your address. Try again in an hour."
    )

    def __init__(self, *args, request: HttpRequest | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        player = cast(PlayerChoiceField, self.fields["player"])
        player.offer_claimable()
        if player.nothing_to_claim:
            del self.fields["player"]  # no empty list: the claim page explains why
        for name, (label, help_text) in REGISTRATION_WORDS.items():
            self.fields[name].label = label
            self.fields[name].help_text = help_text

    def clean_username(self) -> str:
        # Already NFKC (UsernameField). Django refuses a name taken in another case and
        # then returns None: look-alikes are checked only for a name it let through.
        username = super().clean_username()
        if username:
            validate_not_look_alike(username)
        return username

    def _post_clean(self) -> None:
        # The model's checks and the password validators.
        super()._post_clean()  # type: ignore[misc]  # django-stubs omits BaseModelForm._post_clean
        if self.errors:
            return  # not counted: nothing would be created anyway
        if not limits.allow(
            REGISTRATION_SCOPE,
            client_address(self.request),
            limit=REGISTRATIONS_PER_ADDRESS,
            window_s=REGISTRATION_WINDOW_S,
        ):
            self.add_error(None, ValidationError(self.rate_limited_message, code="rate_limited"))
