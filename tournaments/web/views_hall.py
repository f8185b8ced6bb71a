"""The hall screen (``/t/<slug>/hall/``): hands-free, full screen on a projector, in the
language of its address (``?lang=nb``). It rotates through its slides (static/js/hall.js):
pairings by table, by name A–Z, the live battles of the round (the games' fragment,
``games.views_hall``), the standings, the announcement and the round timer. It stays
live over the hall's event stream; ``?part=slides`` answers the slides alone for that.
Both are the same for every viewer of one language: rendered once per state version
(``thud_site.page_cache``; the round timer's count is the browser's to tick)."""

from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest, screen_language
from thud_site.page_cache import CachedPage
from tournaments.models.tournament import Tournament
from tournaments.permissions.tournament_gates import access_tournament_public
from tournaments.rounds.hall import hall_slides
from tournaments.rules import timer

#: Seconds each slide stays up (``?every=`` from 5 to 120).
DEFAULT_EVERY_S = 12


def _every(request: HtmxHttpRequest) -> int:
    try:
        value = int(request.GET.get("every", DEFAULT_EVERY_S))
    except ValueError:
        return DEFAULT_EVERY_S
    return min(max(value, 5), 120)


def _slides(request: HtmxHttpRequest, t: Tournament, cached: CachedPage, part: str) -> str:
    """The screen (or its slides alone) as of now; cached until the timer's look changes."""
    now = cached.now
    context = hall_slides(t, now=now) | {
        "tournament": t,
        "language": cached.language,
        "every": _every(request),
    }
    cached.fresh_for = timer.next_change_s(context["timer"], now)
    template = "tournaments/hall.html#slides" if part == "slides" else "tournaments/hall.html"
    return render_to_string(template, context, request=request)


@require_GET
def hall(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The same for every viewer: from the cache (``page_cache``), per state version."""
    t = access_tournament_public(slug, request)
    language = screen_language(request) or translation.get_language()
    part = "slides" if request.GET.get("part") == "slides" else "screen"
    cached = CachedPage(
        request, t, f"hall-{part}", (_every(request),), language=language, now=timezone.now()
    )
    if (answer := cached.not_modified()) is not None:
        return answer
    with translation.override(language):
        return cached.respond(HttpResponse(cached.body(lambda: _slides(request, t, cached, part))))
