"""A request's personal access token: who it acts for, or why it is refused.

``token_user(request, scope, now=...)`` is what an API view calls first. It reads
``Authorization: Bearer <token>`` and answers ``(user, token)``, or raises a
``TokenRefused`` that carries its HTTP status, a JSON body and its headers:

- 401 (``WWW-Authenticate: Bearer``): no token, a malformed header, an unknown or revoked
  token, an inactive user;
- 429 (``Retry-After``): this token has made ``RATE_LIMIT`` requests in the current window
  of ``RATE_WINDOW_S`` seconds (counted per token, before the scope is looked at, so
  refused requests count too; other tokens and the site's pages are not affected);
- 403: the token lacks ``scope``.

A refused request changes nothing but the rate limit's count: the token's
``last_used_at`` is noted only when it is let through.

The user it answers still goes through the same permission gates as the pages: a scope
narrows what a token may do, it never adds to what its user may do.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from accounts import tokens
from accounts.models import PersonalAccessToken
from thud_site import limits

RATE_LIMIT = 120
RATE_WINDOW_S = 60
RATE_SCOPE = "api-token"


class TokenRefused(Exception):
    """Why a request's token does not let it through; ``status`` is the HTTP status."""

    status = 401
    code = "unauthorized"

    def __init__(self, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after

    def payload(self) -> dict[str, object]:
        body: dict[str, object] = {"error": self.code, "detail": self.message}
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        return body

    def headers(self) -> dict[str, str]:
        if self.status == 401:
            return {"WWW-Authenticate": 'Bearer realm="api"'}
        if self.retry_after is not None:
            return {"Retry-After": str(self.retry_after)}
        return {}

    def response(self) -> JsonResponse:
        return JsonResponse(self.payload(), status=self.status, headers=self.headers())


class NotAuthenticated(TokenRefused):
    status = 401
    code = "unauthorized"


class ScopeMissing(TokenRefused):
    status = 403
    code = "forbidden"


class RateLimited(TokenRefused):
    status = 429
    code = "rate_limited"


def bearer(request: HttpRequest) -> str | None:
    """The token of ``Authorization: Bearer <token>``, None without one."""
    kind, _space, value = request.headers.get("Authorization", "").strip().partition(" ")
    if kind.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def token_user(
    request: HttpRequest, scope: str | tuple[str, ...], *, now: datetime
) -> tuple[User, PersonalAccessToken]:
    """The token's user and token, if the token has ``scope`` (or one of a tuple's)."""
    scopes = (scope,) if isinstance(scope, str) else scope
    plain = bearer(request)
    if plain is None:
        raise NotAuthenticated(_("Send a personal access token: Authorization: Bearer <token>."))
    token = tokens.find(plain)  # its use is noted once it is let through
    if token is None:
        raise NotAuthenticated(_("This token is unknown or has been revoked."))
    verdict = limits.allow_in_window(
        RATE_SCOPE, str(token.pk), limit=RATE_LIMIT, window_s=RATE_WINDOW_S, now=now
    )
    if not verdict.allowed:
        raise RateLimited(
            _("Too many requests with this token: try again in %(n)d seconds.")
            % {"n": verdict.retry_after},
            retry_after=verdict.retry_after,
        )
    if not any(tokens.has_scope(token, one) for one in scopes):
        raise ScopeMissing(
            _("This token may not do this: it needs the scope “%(scope)s”.")
            % {"scope": " | ".join(scopes)}
        )
    tokens.note_use(token, now=now)
    return token.user, token
