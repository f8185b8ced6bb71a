"""The hall screen's live part (``/t/<slug>/hall/``, ``tournaments.web.views_hall``): the
battles of the current round with their clocks, as a fragment the screen fetches, and the
screen's event stream.

The stream (events process only, like ``/battles/<id>/events/``) sends ``event: battle``
for every state published by a battle of the round (the screen refetches the battles
fragment) and ``event: changed`` when anything else on the screen changed (results,
rounds, the timer, the announcement: ``tournaments.for_games.hall_fingerprint``, read
every ``stream.POLL_S``).
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone, translation
from django.views.decorators.http import require_GET

from games.live import stream
from games.models.battle import Battle
from games.web import presenters_hall
from thud_site.http import HtmxHttpRequest, screen_language
from tournaments.for_games import access_tournament_public, current_round, hall_fingerprint


def round_battles(tournament) -> list[Battle]:
    """The battles of the tournament's current round that are being played or waiting for
    their players, or finished, by table and number (not the ones nobody opened)."""
    round_ = current_round(tournament)
    if round_ is None:
        return []
    return list(
        Battle.objects.filter(match__round=round_)
        .exclude(status=Battle.Status.PENDING, awaits_players=False)
        .select_related("match__confirmed_version", "first_entry__player", "second_entry__player")
        .order_by("match__table", "number")
    )


@require_GET
def hall_battles(request: HtmxHttpRequest, slug: str):
    tournament = access_tournament_public(slug)
    with translation.override(screen_language(request) or translation.get_language()):
        slides = presenters_hall.hall_slides(round_battles(tournament), now=timezone.now())
        return render(request, "games/hall_battles.html", {"slides": slides})


def _watch(slug: str) -> tuple[frozenset[int], str]:
    """What the hall's stream watches: the round's battles and the rest's fingerprint."""
    tournament = access_tournament_public(slug)
    battles = frozenset(b.pk for b in round_battles(tournament))
    return battles, hall_fingerprint(tournament)


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
