"""The language switcher's endpoint: Django's set_language, remembered on the profile."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import LANGUAGE_QUERY_PARAMETER
from django.views.i18n import set_language as django_set_language

from accounts.language import remember, supported
from thud_site.http import HtmxHttpRequest


@require_POST
def set_language(request: HtmxHttpRequest) -> HttpResponse:
    """Set the cookie (Django's view: validates ``next`` and the language), then save the
    choice on the profile of a logged-in user so their next login elsewhere uses it."""
    response = django_set_language(request)
    language = request.POST.get(LANGUAGE_QUERY_PARAMETER)
    user = request.user
    if user.is_authenticated and supported(language):
        remember(request, user, language)
    return response
