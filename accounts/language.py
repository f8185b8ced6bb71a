"""The interface language of a request: browser first, then the logged-in user's choice.

Order of precedence, lowest first:

1. Accept-Language on a first visit (Django's LocaleMiddleware);
2. the ``django_language`` cookie set by the language switcher (LocaleMiddleware);
3. for a logged-in user, the language saved on their profile (this module), so a choice
   made on the phone also holds on the laptop after logging in there.

The profile's value is read once per session (cached under ``SESSION_KEY``), not once per
request. Logging in or out starts a new session, so the next request reads it afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts.models import UserProfile

SESSION_KEY = "_profile_language"


def supported(language: str | None) -> TypeGuard[str]:
    return bool(language) and language in dict(settings.LANGUAGES)


def remember(request: HttpRequest, user: User, language: str) -> None:
    """Save ``language`` on the logged-in ``user``'s profile (and this session's copy)."""
    UserProfile.objects.update_or_create(user=user, defaults={"language": language})
    request.session[SESSION_KEY] = language


def profile_language(request: HttpRequest) -> str:
    """The logged-in user's saved language, or ``""`` (anonymous, or never chosen)."""
    if not request.user.is_authenticated:
        return ""
    if SESSION_KEY not in request.session:
        saved = (
            UserProfile.objects.filter(user=request.user).values_list("language", flat=True).first()
        )
        request.session[SESSION_KEY] = saved or ""
    return request.session[SESSION_KEY]


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """The same cookie as django.views.i18n.set_language sets."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class ProfileLanguageMiddleware:
    """After login, switch to the profile's language and set the cookie to match.

    Goes after AuthenticationMiddleware (it needs ``request.user``) and after
    LocaleMiddleware (whose choice from cookie or Accept-Language it overrides).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = profile_language(request)
        if not supported(language):
            return self.get_response(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        # The switcher's own response already carries the new choice: leave it alone.
        cookie = settings.LANGUAGE_COOKIE_NAME
        if cookie not in response.cookies and request.COOKIES.get(cookie) != language:
            set_language_cookie(response, language)
        return response
