"""The hall screen's live part (``/t/<slug>/hall/``, ``tournaments.web.views_hall``): the
battles of the current round with their clocks, as a fragment the screen fetches, and the
screen's event stream.

The stream (events process only, like ``/battles/<id>/events/``) sends ``event: battle``
for every state published by a battle of the round (the screen refetches the battles
fragment) and ``event: changed`` when anything else on the screen changed (results,
rounds, the timer, the announcement: ``tournaments.for_games.hall_fingerprint``, read
every ``stream.POLL_S``).

The battles fragment is the same for every screen until a battle changes (``hall_cache``):
its clocks are the moments they end, and the server's time goes with every answer, a 304
too, in the ``X-Server-Now`` header (epoch ms), against which the screen counts them down.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.live import stream
from games.web import hall_cache
from thud_site.http import HtmxHttpRequest, screen_language
from thud_site.page_cache import CachedPage
from tournaments.for_games import access_tournament_public, current_round, hall_fingerprint

#: The response header with the server's time (epoch ms) the screen counts against.
SERVER_NOW = "X-Server-Now"


def round_battle_ids(tournament) -> frozenset[int]:
    """The battles of the tournament's current round on the hall (``shown_battles``): their
    pks alone (every screen's stream reads them every ``stream.POLL_S``)."""
    round_ = current_round(tournament)
    if round_ is None:
        return frozenset()
    return frozenset(hall_cache.shown_battles(round_).values_list("pk", flat=True))


@require_GET
def hall_battles(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The live-battles slide a screen shows (``?slide=``, from 0), the same for every
    screen: from the cache, per change of its battles."""
    tournament = access_tournament_public(slug, request)
    language = screen_language(request) or translation.get_language()
    try:
        index = int(request.GET.get("slide", "0"))
    except ValueError:
        index = -1
    if index < 0:
        with translation.override(language):  # the screen's, as its slides are
            return HttpResponseBadRequest(_("The slide is a whole number from 0."))
    round_ = current_round(tournament)
    slide = hall_cache.slide_of(round_, index)
    summary = (round_.pk if round_ else None, *slide.summary)
    cached = CachedPage(
        request, tournament, "hall-battles", summary, language=language, now=timezone.now()
    )
    answer = cached.not_modified()
    if answer is None:
        version = tournament.state_version
        with translation.override(language):
            body = cached.body(
                lambda: hall_cache.fragment(round_, slide, state_version=version, language=language)
            )
        answer = cached.respond(HttpResponse(body))
    answer[SERVER_NOW] = str(int(timezone.now().timestamp() * 1000))
    return answer


def _watch(slug: str) -> tuple[frozenset[int], str]:
    """What the hall's stream watches: the round's battles and the rest's fingerprint."""
    tournament = access_tournament_public(slug)
    return round_battle_ids(tournament), hall_fingerprint(tournament)


@require_GET
async def hall_events(request: HtmxHttpRequest, slug: str):
    watch = await sync_to_async(stream.check_and_close, thread_sensitive=False)(_watch, slug)
    if isinstance(request, WSGIRequest):  # as battle_events: only the events process streams
        return HttpResponse(status=503)
    response = StreamingHttpResponse(
        stream.hall_stream(watch, lambda: stream.check_and_close(_watch, slug)),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
