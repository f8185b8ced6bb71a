"""API v1's conditional reads: an ``ETag`` on every successful read, a 304 for a reader
whose ``If-None-Match`` holds it.

Two kinds of ETag, one mechanism:

- **The body's digest** (the default, :func:`conditional` after the work): right whatever
  changed the data, it saves the reader the transfer, not the server the work.
- **A version known before the work** (:func:`answer_if_unchanged`, called by an operation
  after its permission check): when the answer is a function of a version the writers
  keep (a tournament's ``state_version``, which every writer of its public pages bumps),
  a reader holding it is answered 304 before any loader runs; the 200 carries the same
  tag. Only for answers the version really follows: a tournament's check-in and its
  battles' moves do not bump it, so its entries and battles keep the digest.

Every answer says ``Cache-Control: no-cache`` (revalidate each time, which a 304 makes
cheap) and varies on the language (messages are translated) and the cookie.
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

VARY = ("Accept-Language", "Cookie")

#: Where an operation leaves the version tag for :func:`conditional` (one request).
_ETAG_ATTRIBUTE = "_api_version_etag"


class NotModified(Exception):
    """Raised by :func:`answer_if_unchanged`: the API answers ``response`` (a 304)."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__("not modified")
        self.response = response


def answer_if_unchanged(request: HttpRequest, etag: str) -> None:
    """Raise :class:`NotModified` if the reader holds ``etag``; else the answer will
    carry it."""
    probe = _headers(HttpResponse(), etag)
    answer = get_conditional_response(request, etag=etag, response=probe)
    if answer is not probe and answer is not None:
        raise NotModified(answer)
    setattr(request, _ETAG_ATTRIBUTE, etag)


def conditional(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response`` with its ETag (the version's, else the body's digest), or a 304 if
    the reader holds this one already."""
    etag = getattr(request, _ETAG_ATTRIBUTE, None)
    if etag is None:
        etag = f'"{hashlib.sha256(response.content).hexdigest()[:32]}"'
    _headers(response, etag)
    answer = get_conditional_response(request, etag=etag, response=response)
    assert answer is not None  # given a response, it answers it or a 304
    return answer


def _headers(response: HttpResponse, etag: str) -> HttpResponse:
    response.headers["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, VARY)
    return response
