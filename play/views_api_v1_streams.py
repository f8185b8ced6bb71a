"""API v1's live streams as NDJSON, for programs that play (``application/x-ndjson``: one
JSON object a line; an empty line every ``stream.KEEPALIVE_S`` of silence keeps the
connection open).

- ``GET /battles/{id}/stream``: the battle's state (``play.views_api_v1.StateOut``, as
  ``{"type": "state", "state": …}``) at once, then again after every change (a move, a
  touch, an offer, the clock's expiries, a pause), the newest only when several come
  together; the stream ends after the state that says the battle is finished. Whoever may
  watch the battle may read it (a ``read``, ``play`` or ``bot`` token).
- ``GET /stream/events``: the token user's events, each ``{"type": …, …}``:
  ``challenge`` (someone challenged them: ``challenge``, ``from``), ``gameStart`` (a
  battle waits for them: their challenge was accepted, the opponent is at the board,
  battle 2 of a match: ``battle``), ``gameFinish`` (one of their online battles ended:
  ``battle``), ``round`` (a tournament's round with their match was published:
  ``match``). An empty line comes first, once the stream listens: what happens from then
  on is told, after the last minute's events (``publish.recent_notices``), sent again for
  a program that was connecting when they came (so an event may come twice). Older ones
  are not replayed: a program reads ``GET /challenges`` and its battles' states when it
  connects.

Both are served by the events process (uvicorn, the Procfile's ``events``), as the pages'
SSE streams are: under the WSGI server these addresses answer a 503 problem at once (an
endless answer would hold a sync worker). They are fed by Redis pub/sub through the
process's one subscription (``games.live.stream``'s hubs); while Redis is down the battle
stream reads its battle every ``stream.POLL_S``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal

from asgiref.sync import sync_to_async
from django import db
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from ninja import Field, Router, Schema

from games.battles import joining
from games.events import publish
from games.live import stream
from games.web import permissions
from play import challenges
from play.views_api_v1 import READING, REFUSALS, StateOut, TokenRequest, settled_battle, state_of
from thud_site.problems import Problem, problem_response

router = Router(tags=["streams"])

CONTENT_TYPE = "application/x-ndjson"
KEEPALIVE = b"\n"
#: ``front/api_v1.py`` documents an operation marked so as NDJSON.
NDJSON = {"x-stream": CONTENT_TYPE}
STREAM_REFUSALS: dict[int, type[Problem]] = {**REFUSALS, 503: Problem}

#: A notice's kind (``publish.publish_notices``) as an event's type.
EVENT_TYPES = {
    challenges.CHALLENGED: "challenge",
    challenges.ACCEPTED: "gameStart",
    joining.WAITING: "gameStart",
    joining.NEXT: "gameStart",
    joining.FINISHED: "gameFinish",
    joining.ROUND: "round",
}


class BattleEventOut(Schema):
    type: Literal["state"]
    state: StateOut


class UserEventOut(Schema):
    type: Literal["challenge", "gameStart", "gameFinish", "round"]
    battle: int | None = None
    match: int | None = None
    challenge: int | None = None
    #: Who it is from (the challenger, the opponent), when there is someone.
    from_: str | None = Field(None, alias="from")


def _line(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def _streamed(request: HttpRequest, body: AsyncIterator[bytes]) -> HttpResponseBase:
    if isinstance(request, WSGIRequest):
        return problem_response(
            503,
            "Streams are served by the events process (uvicorn front.asgi:application, the "
            "Procfile's “events”), not by this web server: route /api/v1/…/stream there.",
        )
    response = StreamingHttpResponse(body, content_type=CONTENT_TYPE)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _read_and_close(read: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``read`` in a thread that gives its database connection back (an open stream must
    not hold one)."""
    try:
        return read()
    finally:
        db.connection.close()


async def battle_lines(read: Callable[[], dict[str, Any]], battle_id: int):
    """The battle stream's body: ``read``'s state now and after every newer version
    published, until the battle is finished; a keepalive line in silences."""
    queue = stream.hub.register(battle_id)
    try:
        await stream.hub.wait_ready()  # a state read before it could miss a later one
        version = -1
        item: Any = stream.RESYNC
        while True:
            newer = isinstance(item, dict) and item.get("version", 0) > version
            if item is stream.RESYNC or newer:
                state = await sync_to_async(_read_and_close, thread_sensitive=False)(read)
                if state["version"] > version or item is stream.RESYNC:
                    version = state["version"]
                    yield _line({"type": "state", "state": state})
                if state["status"] == "finished":
                    return
            live = stream.hub.live
            try:
                timeout = stream.KEEPALIVE_S if live else stream.POLL_S
                item = await asyncio.wait_for(queue.get(), timeout=timeout)
            except TimeoutError:
                # Without Redis nobody publishes: read the battle again (settled on read).
                item = None if live else stream.RESYNC
                if live:
                    yield KEEPALIVE
    finally:
        stream.hub.unregister(battle_id, queue)


def _user_event(item: Any) -> bytes | None:
    if not isinstance(item, dict) or item.get("kind") not in EVENT_TYPES:
        return None
    event = {"type": EVENT_TYPES[item["kind"]]}
    for key in ("battle", "match", "challenge", "from"):
        if item.get(key) not in (None, ""):
            event[key] = item[key]
    return _line(event)


@router.get(
    "/battles/{int:battle_id}/stream",
    response={200: BattleEventOut, **STREAM_REFUSALS},
    auth=READING,
    openapi_extra=NDJSON,
)
async def battle_stream(request: TokenRequest, battle_id: int):
    """The battle's state now and after each change, one line each, until it ends."""
    user = request.auth
    await sync_to_async(stream.check_and_close, thread_sensitive=False)(
        permissions.access_battle_public, user, battle_id
    )

    def read() -> dict[str, Any]:
        return state_of(user, settled_battle(user, battle_id), now=timezone.now())

    return _streamed(request, battle_lines(read, battle_id))


@router.get(
    "/stream/events",
    response={200: UserEventOut, **STREAM_REFUSALS},
    auth=READING,
    openapi_extra=NDJSON,
)
async def events(request: TokenRequest):
    """The token user's events (challenges, battles starting and ending, rounds), a line
    each, as they happen."""
    user = request.auth
    body = stream.keyed_stream(
        stream.user_hub,
        user.pk,
        _user_event,
        connected=KEEPALIVE,
        keepalive=KEEPALIVE,
        replay=lambda: publish.recent_notices(user.pk),
    )
    return _streamed(request, body)
