"""API v1 (``/api/v1/``): the apps' routers composed into one django-ninja API, its
OpenAPI 3 document (``openapi.json``) and browsable docs (``docs``, Swagger UI served from
ninja's own static files).

What holds for every address of v1, in this one place:

- **One address style**: no trailing slash (``/api/v1/tournaments/lancre``). Any other
  address under ``/api/v1/``, the same one with a slash included, is a 404 problem, never
  a redirect (``APPEND_SLASH`` only adds a slash, and these addresses match without one).
- **Errors are RFC 9457 problem details** (``thud_site.problems``): a 404 (unknown slug or
  id, a draft round, an unknown address), a 422 (a bad parameter: ``page=0``, an unknown
  ``game``; a move that is not legal), a 405 (a method the address does not offer), a 401,
  403 or 429 for a token (``accounts.token_auth``: its ``WWW-Authenticate`` or
  ``Retry-After`` kept), a 409 (what a battle's state refuses: stale, out of turn), a 500
  (a bug, logged as Django logs its own).
- **Reads are open, actions need a token**: what the pages show anyone needs none; playing
  (``play.views_api_v1``) acts as a personal access token's user, through the pages' gates.
- **ETag / If-None-Match** on every successful read (``thud_site.conditional``): the
  digest of the body, or a version an operation knows before its work (a tournament's
  ``state_version`` for its detail, pairings, standings and statistics: a 304 then costs
  the gate's query, no loader); a reader holding it gets a 304 with no body.
- **Lists are paginated** (``page``, ``page_size``: ``{"items": [...], "count": n}``).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern, re_path, reverse
from ninja import NinjaAPI
from ninja.errors import HttpError, ValidationError
from ninja.openapi.docs import Swagger

from accounts.token_auth import TokenRefused
from games.battles.errors import BattleError, InvalidInput
from games.web import api_v1 as games_api
from play import views_api_v1 as play_api
from play import views_api_v1_challenges as play_challenges_api
from play import views_api_v1_matches as play_matches_api
from play import views_api_v1_streams as play_streams
from play.challenges import ChallengeError
from thud_site.conditional import NotModified, conditional
from thud_site.problems import CONTENT_TYPE, problem_response
from tournaments.web.api_v1 import people, tournaments

NAMESPACE = "api-v1"
REQUEST_LOGGER = logging.getLogger("django.request")

DESCRIPTION = """\
The Thud Tournament Manager's API: tournaments, entries with check-in, pairings,
standings, statistics, battles with their moves, and ratings, for anyone; and playing a
battle (its state, Ready, touch, move, end offers, resignation), a tournament match online,
challenges and live streams, as the user of a personal
access token (`Authorization: Bearer <token>`, made on the account's tokens page).

Lists are paginated (`page`, `page_size`); every read carries an `ETag` (send it back
in `If-None-Match` for a 304); errors are RFC 9457 problem details
(`application/problem+json`). Addresses have no trailing slash. The old addresses under
`/api/` keep answering until the next major release (see the README).
"""


class ApiV1(NinjaAPI):
    def create_response(
        self,
        request: HttpRequest,
        data: Any,
        *,
        status: int | None = None,
        temporal_response: HttpResponse | None = None,
    ) -> HttpResponse:
        response = super().create_response(
            request, data, status=status, temporal_response=temporal_response
        )
        if request.method in ("GET", "HEAD") and response.status_code == 200:
            return conditional(request, response)
        return response

    def get_openapi_schema(self, **kwargs: Any) -> Any:
        """Ninja's document, with the refusals in their own media type (RFC 9457)."""
        schema = super().get_openapi_schema(**kwargs)
        for operations in schema["paths"].values():
            for operation in operations.values():
                streamed = operation.get("x-stream")
                if streamed:  # one JSON object a line (play.views_api_v1_streams)
                    ok = operation["responses"][200]["content"]
                    ok[streamed] = ok.pop("application/json")
                for status, answer in operation["responses"].items():
                    if int(status) >= 400 and "application/json" in answer.get("content", {}):
                        answer["content"] = {CONTENT_TYPE: answer["content"]["application/json"]}
        return schema


api = ApiV1(
    title="Thud Tournament Manager API",
    version="1",
    description=DESCRIPTION,
    urls_namespace=NAMESPACE,
    docs=Swagger(),
    docs_url="/docs",
    openapi_url="/openapi.json",
)
api.add_router("", tournaments.router)
api.add_router("", people.router)
api.add_router("", games_api.router)
api.add_router("", play_api.router)
api.add_router("", play_streams.router)
api.add_router("", play_challenges_api.router)
api.add_router("", play_matches_api.router)


@api.exception_handler(TokenRefused)
def token_refused(request: HttpRequest, exc: TokenRefused) -> HttpResponse:
    answer = problem_response(exc.status, exc.message)
    for header, value in exc.headers().items():
        answer.headers[header] = value
    return answer


@api.exception_handler(BattleError)
def battle_refused(request: HttpRequest, exc: BattleError) -> HttpResponse:
    """What was sent (422) or what the battle's state refuses (409), in the page's words."""
    return problem_response(422 if isinstance(exc, InvalidInput) else 409, str(exc.message))


@api.exception_handler(ChallengeError)
def challenge_refused(request: HttpRequest, exc: ChallengeError) -> HttpResponse:
    """What the offers' state refuses (``play.views_api_v1_challenges``: no longer open, the
    limits), in the page's words; what was sent is refused before, by the form (422)."""
    return problem_response(409, str(exc.message))


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Exception) -> HttpResponse:
    return problem_response(404, str(exc) or "Not found")


@api.exception_handler(NotModified)
def not_modified(request: HttpRequest, exc: NotModified) -> HttpResponse:
    return exc.response


@api.exception_handler(PermissionDenied)
def forbidden(request: HttpRequest, exc: Exception) -> HttpResponse:
    return problem_response(403, str(exc) or "Forbidden")


@api.exception_handler(ValidationError)
def invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    # pydantic's errors may carry the exception itself (``ctx``): keep what a reader needs.
    errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors]
    return problem_response(422, "Invalid parameters", errors=errors)


@api.exception_handler(Exception)
def server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    """A bug is a 500 problem too, logged where Django logs its own (``django.request``:
    the administrators' e-mails, the error log)."""
    REQUEST_LOGGER.error(
        "Internal Server Error: %s",
        request.path,
        exc_info=exc,
        extra={"status_code": 500, "request": request},
    )
    return problem_response(500, "The server failed to answer; the error is logged.")


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return problem_response(exc.status_code, str(exc))


def problems(view: Callable[..., Any]) -> Callable[..., Any]:
    """``view`` with its refusals outside ninja's operations as problems too: a method
    the address does not offer (405, with its ``Allow``), the root's 404. HEAD is
    answered as GET without the body. An address whose operations are async (the
    streams) gets an async wrapper."""

    if inspect.iscoroutinefunction(view):

        @wraps(view)
        async def async_wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            try:
                response = await view(request, *args, **kwargs)
            except Http404:
                return unknown_address(request)
            return _allowed(response)

        return async_wrapper

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        head = request.method == "HEAD"
        if head:  # a GET whose body is left out: the same status and headers (ETag)
            request.method = "GET"
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            return unknown_address(request)
        finally:
            if head:
                request.method = "HEAD"
        if head and not response.streaming:
            response.content = b""
        return _allowed(response)

    return wrapper


def _allowed(response: Any) -> Any:
    """A 405 as a problem, with its ``Allow``."""
    if response.status_code != 405:
        return response
    allowed = response.headers.get("Allow", "")
    answer = problem_response(405, f"This address answers {allowed} only.")
    answer.headers["Allow"] = allowed
    return answer


def unknown_address(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    detail = f"No such address: {request.path}."
    if request.path.endswith("/") and request.path != api_root():
        detail += " API v1 addresses have no trailing slash."
    else:
        detail += " The API is described at /api/v1/docs."
    return problem_response(404, detail)


def api_root() -> str:
    return reverse(f"{NAMESPACE}:api-root")


def _patterns() -> list[URLPattern]:
    patterns, _app, _namespace = api.urls
    wrapped = [
        URLPattern(p.pattern, problems(p.callback), p.default_args, p.name)
        for p in patterns
        if isinstance(p, URLPattern)
    ]
    assert len(wrapped) == len(patterns), "API v1 has no nested URL confs"
    return [*wrapped, re_path(r"^.*$", unknown_address)]


#: For ``front/urls.py``: ``path("api/v1/", api_v1.urls)`` (patterns, app name, namespace).
urls = (_patterns(), NAMESPACE, NAMESPACE)


# The old addresses ---------------------------------------------------------------------

#: When v1 replaced the old JSON addresses (README "API"): they answer as before, each
#: answer saying so (RFC 9745: ``Deprecation`` as a date, a ``Link`` to v1's docs). They
#: go with the next major release; no date is set yet, so no ``Sunset``.
OLD_API_DEPRECATED = datetime(2026, 12, 4, tzinfo=UTC)


def _deprecated(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response.headers["Deprecation"] = f"@{int(OLD_API_DEPRECATED.timestamp())}"
        docs = reverse(f"{NAMESPACE}:openapi-view")
        response.headers["Link"] = f'<{docs}>; rel="deprecation"; type="text/html"'
        return response

    return wrapper


def old_addresses(patterns: list[Any]) -> list[URLPattern]:
    """The old API's URL patterns, each answer marked deprecated."""
    assert all(isinstance(p, URLPattern) for p in patterns), "no nested URL confs"
    return [
        URLPattern(p.pattern, _deprecated(p.callback), p.default_args, p.name) for p in patterns
    ]
