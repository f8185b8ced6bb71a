"""The hall screen (``/t/<slug>/hall/``): hands-free, full screen on a projector, in the
language of its address (``?lang=nb``). It rotates through its slides (static/js/hall.js):
pairings by table, by name A–Z, the live battles of the round (the games' fragment,
``games.views_hall``), the standings, the announcement and the round timer. It stays
live over the hall's event stream; ``?part=slides`` answers the slides alone for that."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone, translation
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest, screen_language
from tournaments.permissions.tournament_gates import access_tournament_public
from tournaments.rounds.hall import hall_slides

#: Seconds each slide stays up (``?every=`` from 5 to 120).
DEFAULT_EVERY_S = 12


def _every(request: HtmxHttpRequest) -> int:
    try:
        value = int(request.GET.get("every", DEFAULT_EVERY_S))
    except ValueError:
        return DEFAULT_EVERY_S
    return min(max(value, 5), 120)


@require_GET
def hall(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)
    language = screen_language(request) or translation.get_language()
    with translation.override(language):
        context = hall_slides(t, now=timezone.now()) | {
            "tournament": t,
            "language": language,
            "every": _every(request),
        }
        if request.GET.get("part") == "slides":
            return render(request, "tournaments/hall.html#slides", context)
        return render(request, "tournaments/hall.html", context)
