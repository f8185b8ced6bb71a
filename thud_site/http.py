"""Helpers shared by views: the request type (django-htmx's example pattern) and JSON
errors for the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import Http404, HttpRequest, JsonResponse
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def json_404(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
    @wraps(view)
    def wrapper(request, *args, **kwargs) -> JsonResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404 as exc:
            return JsonResponse({"error": str(exc) or "Not found"}, status=404)

    return wrapper
