"""Public, read-only pages: no login needed."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest

from .models import Tournament


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.order_by("-start_date", "name")
    return render(request, "tournaments/home.html", {"tournaments": tournaments})
