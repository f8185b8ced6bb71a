"""Helpers shared by views: the request types (django-htmx's example pattern) and JSON
errors for the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, JsonResponse
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    """A request to a view behind ``@login_required``: its user has signed in."""

    user: User


def json_404(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
    @wraps(view)
    def wrapper(request, *args, **kwargs) -> JsonResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404 as exc:
            return JsonResponse({"error": str(exc) or "Not found"}, status=404)

    return wrapper


def screen_language(request: HttpRequest) -> str | None:
    """The language a screen without a visitor asks for in its address (``?lang=nb``; the
    hall screen on a projector has nobody to press a language button), if the site has it."""
    code = request.GET.get("lang", "")
    return code if code in {c for c, _name in settings.LANGUAGES} else None
