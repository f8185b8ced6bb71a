"""The live streams (server-sent events): a battle's, a tournament desk's, a user's notices.

Each is an async view that checks its gate in a thread (``games.live.stream.check_and_close``)
and then streams from Redis (``games.live.stream``). Only the events process (uvicorn)
streams: under gunicorn these paths answer 503 at once.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.live import stream
from games.web import permissions
from thud_site.http import HtmxHttpRequest


def _may_watch(user, battle_id: int) -> None:
    """The gate of the live stream. Opening it changes nothing (state changes only on
    POST): the battle page joins its player by posting *Ready* once its stream is open
    (``static/js/board.js``), so a stream opened elsewhere (a link, another page) never
    starts a clock."""
    permissions.access_battle_public(user, battle_id)


@require_GET
async def battle_events(request: HtmxHttpRequest, battle_id: int):
    await sync_to_async(stream.check_and_close, thread_sensitive=False)(
        _may_watch, request.user, battle_id
    )
    if isinstance(request, WSGIRequest):
        # The shared URLconf serves this path under gunicorn too, where an endless stream
        # is buffered whole and holds a sync worker: refuse at once, saying who serves it.
        message = _(
            "Live updates are served by the events process (uvicorn "
            "front.asgi:application, the Procfile's “events”), not by this web "
            "server: route /battles/<id>/events/ to it."
        )
        return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response = StreamingHttpResponse(
        stream.stream(battle_id, read_clock=timezone.now), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _desk_tournament_id(user, slug: str) -> int:
    return permissions.access_tournament_for_referee(user, slug).pk


@require_GET
async def tournament_events(request: HtmxHttpRequest, slug: str):
    """A tournament's events (a check-in) for its organisers' and referees' desk pages."""
    user = await request.auser()
    tournament_id = await sync_to_async(stream.check_and_close, thread_sensitive=False)(
        _desk_tournament_id, user, slug
    )
    if isinstance(request, WSGIRequest):  # as battle_events: only the events process streams
        return HttpResponse(status=503)
    response = StreamingHttpResponse(
        stream.tournament_stream(tournament_id), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


@require_GET
async def notices_events(request: HtmxHttpRequest):
    """The logged-in user's notices (a battle waiting for them), on every page."""
    user = await request.auser()
    if not user.is_authenticated:
        return HttpResponse(status=403)
    if isinstance(request, WSGIRequest):  # as battle_events: only the events process streams
        return HttpResponse(status=503)
    response = StreamingHttpResponse(stream.user_stream(user.pk), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
