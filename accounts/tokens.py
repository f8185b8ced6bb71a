"""Personal access tokens: made, recognised and revoked (the model is
``accounts.models.PersonalAccessToken``, the scopes ``accounts.models.TokenScope``).

Terminology: the *plain token* is what its owner copies once and a program sends
(``thud_`` + 43 URL-safe characters, 256 random bits); the *prefix* is its first
``TOKEN_PREFIX_LENGTH`` characters, kept in clear to recognise it in the list; the *hash* is
the SHA-256 of the whole plain token, the only form of the secret the database holds.

Why SHA-256 and not a password hasher: a password hasher is slow and salted because
passwords are guessable; it makes each guess cost. A plain token has 256 random bits, so no
number of guesses finds it whatever the hash's speed, and a fast, unsalted hash lets a
request find its token with one indexed look-up (a salted hash would need the row first,
so a separate id in the token, and PBKDF2 would cost most of a second on every API call).
The look-up compares hashes, not the secret: how long it takes tells a guesser nothing
about the token (to steer the hash's bytes they would have to invert SHA-256).

Invariants: the plain token leaves ``make_token`` once and is never stored; a user has at
most ``LIVE_TOKENS_MAX`` tokens that are not revoked; a revoked token, or one whose user is
inactive, is refused; ``last_used_at`` is written at most once per ``LAST_USED_EVERY``, so
a busy program does not cost a write per request. Time is an argument (``now``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import TOKEN_NAME_MAX, TOKEN_PREFIX_LENGTH, PersonalAccessToken, TokenScope

TOKEN_PREFIX = "thud_"
#: Bytes of randomness in a token (token_urlsafe writes 43 characters for 32 bytes).
TOKEN_BYTES = 32
#: Tokens a user may hold at once that are not revoked.
LIVE_TOKENS_MAX = 20
LAST_USED_EVERY = timedelta(minutes=1)
# Longer than any token we make: a longer header is refused before it is hashed.
_PLAIN_MAX = 100


class TokenError(ValueError):
    """A token that cannot be made or revoked; the message is shown to the user."""


class NoSuchToken(TokenError):
    """Not one of this user's tokens (someone else's, or none at all)."""


@dataclass(frozen=True)
class NewToken:
    """What ``make_token`` returns: the row, and the plain token to show once."""

    plain: str
    token: PersonalAccessToken


def hash_token(plain: str) -> str:
    return hashlib.sha256(plain.encode()).hexdigest()


def _checked_scopes(scopes: Iterable[str]) -> list[str]:
    chosen = set(scopes)
    if not chosen:
        raise TokenError(_("Choose at least one scope."))
    unknown = chosen - set(TokenScope.values)
    if unknown:
        raise TokenError(_("Unknown scope: %(scope)s.") % {"scope": ", ".join(sorted(unknown))})
    return [s for s in TokenScope.values if s in chosen]  # TokenScope's order


def make_token(user: User, *, name: str, scopes: Iterable[str], now: datetime) -> NewToken:
    """Make a token for ``user``; the plain token is in the answer and nowhere else."""
    name = name.strip()
    if not name:
        raise TokenError(_("Give the token a name."))
    if len(name) > TOKEN_NAME_MAX:
        raise TokenError(_("A token's name has at most %(n)d characters.") % {"n": TOKEN_NAME_MAX})
    chosen = _checked_scopes(scopes)
    plain = TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    with transaction.atomic():
        # The account's row is the lock: parallel requests cannot all see room under the cap.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if live_tokens(user).count() >= LIVE_TOKENS_MAX:
            raise TokenError(
                _("You have %(n)d tokens already: revoke one you no longer use first.")
                % {"n": LIVE_TOKENS_MAX}
            )
        token = PersonalAccessToken.objects.create(
            user=user,
            name=name,
            scopes=chosen,
            prefix=plain[:TOKEN_PREFIX_LENGTH],
            token_hash=hash_token(plain),
            created_at=now,
        )
    return NewToken(plain=plain, token=token)


def live_tokens(user: User):
    return PersonalAccessToken.objects.filter(user=user, revoked_at__isnull=True)


def tokens_of(user: User):
    """The account page's list: every token of ``user``, newest first, revoked ones too."""
    return PersonalAccessToken.objects.filter(user=user)


def find(plain: str) -> PersonalAccessToken | None:
    """The live token ``plain`` is, with its user; None for anything else (unknown,
    malformed, revoked, or its user inactive). Writes nothing."""
    if not plain.startswith(TOKEN_PREFIX) or len(plain) > _PLAIN_MAX:
        return None
    token = (
        PersonalAccessToken.objects.select_related("user")
        .filter(token_hash=hash_token(plain))
        .first()
    )
    if token is None or token.is_revoked or not token.user.is_active:
        return None
    return token


def note_use(token: PersonalAccessToken, *, now: datetime) -> None:
    """Note that ``token`` was used at ``now``: at most one write per ``LAST_USED_EVERY``."""
    last_used = token.last_used_at
    if last_used is None or now - last_used >= LAST_USED_EVERY:
        # Conditional, so parallel requests write it once between them.
        stale = Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - LAST_USED_EVERY)
        PersonalAccessToken.objects.filter(stale, pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


def authenticate(plain: str, *, now: datetime) -> PersonalAccessToken | None:
    """``find``, and the use noted (at most once a minute)."""
    token = find(plain)
    if token is not None:
        note_use(token, now=now)
    return token


def has_scope(token: PersonalAccessToken, scope: str) -> bool:
    """Whether ``token`` was given ``scope``; no scope implies another."""
    return scope in token.scopes


def token_of(user: User, token_id: int) -> PersonalAccessToken:
    """One of ``user``'s tokens; ``NoSuchToken`` for anyone else's."""
    token = PersonalAccessToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        raise NoSuchToken(_("No such token."))
    return token


def revoke(user: User, token_id: int, *, now: datetime) -> PersonalAccessToken:
    """Revoke one of ``user``'s tokens: it is refused from now on."""
    token = token_of(user, token_id)
    updated = PersonalAccessToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
        revoked_at=now
    )
    if not updated:
        raise TokenError(_("This token is already revoked."))
    token.revoked_at = now
    return token
