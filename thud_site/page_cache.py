"""A tournament's public pages, paid for once per change, not once per reader.

Standings, pairings, the tournament page's public part, the hall screen's slides and its
live battles (``games.web.views_hall``) are rendered by the first reader after the
tournament's state changes and served from the ``default`` cache to every other reader.
It sits on the floor so that every app's views use it; a tournament is any object with
the three fields of :class:`Versioned`. Terminology and invariants:

- The **key** of a cached body is (its kind, the tournament, its creation time, its
  ``state_version``, the language, the page's own parameters); the same body may answer
  htmx's refresh and sit in the whole page (the standings table), under two ETags. Every write
  that changes what these pages show bumps the state version in its transaction
  (``tournaments.models.state_version``), so the first read after the writer was told
  "done" misses and renders the new page: nobody is served an old page after that.
  The creation time keeps keys apart across databases that reuse primary keys.
- Only what is **identical for every reader** is cached: an htmx fragment, the hall
  screen (no login, no form), or the public fragment of a page in the site's layout
  (whose navigation, CSRF token, messages and personal controls are rendered for each
  request around it, ``mark_safe``'d in).
- A **whole page** in the layout (``CachedPage.page``) is shared too, by the readers for
  whom it is the same: anonymous, with no message waiting, at the same address (its
  query string only what the page reads, ``SHARED_QUERY``: the language switcher sends
  the reader back to it) and in the same time zone. Their one difference, the CSRF
  token, is a hole (``CSRF_HOLE``) filled with each reader's own. A signed-in reader's
  page is rendered for them, as before.
- **ETag / 304**: a shared body's ETag is derived from its key alone. A page in the
  site's layout has one only for an anonymous reader with no message waiting, derived
  from the key and the CSRF cookie (the page holds a token for it); a signed-in reader's
  navigation changes with things the state version does not follow (games waiting for
  their move), so their layout pages are never answered 304. Every answer says
  ``Cache-Control: no-cache`` (revalidate each time, which a 304 makes cheap) and
  ``Vary: Cookie, Accept-Language, HX-Request``.
- Redis accelerates, it never gates: the default cache (``thud_site.cache``) answers a
  miss and drops the write while Redis is down, and the page is rendered as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from thud_site.http import HtmxHttpRequest

#: How long a body stays cached at most: a page nobody reads leaves the cache, and a
#: write that does not bump the version (a site administrator's edit in the Django admin)
#: shows within this time.
PAGE_CACHE_S = 600

VARY = ("Cookie", "Accept-Language", "HX-Request")

#: Stands for the reader's CSRF token in a whole page shared by anonymous readers: the
#: ``csrf_token`` of the render's context, replaced by the reader's own when served.
CSRF_HOLE = "csrf0hole0c4e81b7f2d9a365"
#: The query parameters a shared whole page may be asked with (any other is rendered for
#: its reader alone: an address nobody else asks for fills no cache).
SHARED_QUERY = frozenset({"page"})


class Versioned(Protocol):
    """What the key reads of a tournament (``tournaments.models.Tournament``)."""

    pk: int
    created_at: datetime
    state_version: int


@dataclass
class CachedPage:
    """One request's view of one cached page: its key, its ETag, its cached body."""

    request: HtmxHttpRequest
    tournament: Versioned
    kind: str
    #: What else the body depends on (a page number, a round, the hall's slide time).
    params: tuple = ()
    #: The language the body is rendered in (default: the request's).
    language: str = ""
    #: The answer is a page in the site's layout (navigation, CSRF token, messages), of
    #: which only the body is shared; False when the body is the answer (an htmx
    #: fragment, the hall screen).
    in_layout: bool = False
    #: At most how long the body stays right (seconds; None: until the state changes):
    #: the render may set it (the hall screen's timer turns to its warning).
    fresh_for: float | None = None
    #: The request's moment, handed in by the view (what a body's ``fresh_for`` counts
    #: from, and what it is checked against).
    now: datetime = field(kw_only=True)
    key: str = field(init=False)

    def __post_init__(self) -> None:
        self.language = self.language or get_language()
        t = self.tournament
        parts = (t.pk, t.created_at.timestamp(), t.state_version, self.language, self.params)
        digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:40]
        self.key = f"page:{self.kind}:{digest}"

    def body(self, render: Callable[[], str], *, key: str = "") -> str:
        """The cached body under this page's key (or ``key``), or ``render()``'s, stored
        for the next reader (until ``fresh_for`` seconds from now, if the render set it:
        the cached value carries that moment, so the page's clock decides, not the
        cache's)."""
        key = key or self.key
        cached = cache.get(key)
        if isinstance(cached, tuple):
            until, body = cached
            if until is None or self.now.timestamp() < until:
                return body
        body = render()
        until = None if self.fresh_for is None else self.now.timestamp() + self.fresh_for
        cache.set(key, (until, body), PAGE_CACHE_S)
        return body

    def page(self, template: str, context: Callable[[], dict]) -> HttpResponse:
        """The whole page in the site's layout: ``template`` rendered with ``context()``
        for this reader, or, for an anonymous one with nothing of their own on it, the
        page every such reader shares, with this reader's CSRF token in its hole (and
        ``context`` not asked)."""
        request = self.request
        if (
            request.user.is_authenticated
            or len(get_messages(request))
            or not set(request.GET) <= SHARED_QUERY
        ):
            return HttpResponse(render_to_string(template, context(), request=request))
        where = (request.get_full_path(), timezone.get_current_timezone_name())
        key = f"{self.key}:page:{hashlib.sha256(repr(where).encode()).hexdigest()[:32]}"
        shared = self.body(
            lambda: render_to_string(
                template, context() | {"csrf_token": CSRF_HOLE}, request=request
            ),
            key=key,
        )
        return HttpResponse(shared.replace(CSRF_HOLE, get_token(request)))

    def etag(self) -> str | None:
        """The ETag of the answer, or None when it must not be answered 304."""
        # The same body is the htmx answer and a part of the whole page: not the same answer.
        tag = f"{self.key}:{bool(self.request.htmx)}:{self.in_layout}"
        if self.in_layout:
            if self.request.user.is_authenticated or len(get_messages(self.request)):
                return None
            tag += f":{self.request.COOKIES.get(settings.CSRF_COOKIE_NAME, '')}"
        # Weak: a page in the layout is the same page, not the same bytes (CSRF masking).
        weak = "W/" if self.in_layout else ""
        return f'{weak}"{hashlib.sha256(tag.encode()).hexdigest()[:32]}"'

    def not_modified(self) -> HttpResponse | None:
        """A 304 answer if the reader holds this version already (``If-None-Match``)."""
        etag = self.etag()
        if etag is None:
            return None
        headers = self._headers(HttpResponse(), etag)
        answer = get_conditional_response(self.request, etag=etag, response=headers)
        return None if answer is headers else answer

    def respond(self, response: HttpResponse) -> HttpResponse:
        """``response`` with this page's ETag and cache headers."""
        return self._headers(response, self.etag())

    def _headers(self, response: HttpResponse, etag: str | None) -> HttpResponse:
        if etag is not None:
            response.headers["ETag"] = etag
        if self.in_layout:
            patch_cache_control(response, no_cache=True, private=True)
        else:
            patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, VARY)
        return response
