"""Whose offline entries a device holds (issue 40: a shared device keeps nothing of the
last person).

Every page names the person it was made for, opaquely (``queue_owner``, on
``<body data-offline-user>``); ``static/js/offline.js`` tags each entry it queues with it,
sends an entry only from a page of that same person, and sends it with the header
``X-Thud-Queued-By``. ``QueuedByMiddleware`` is the server's half: an entry whose person
is not the session's (another person logged in since, in another tab, say) is refused
before any view sees it, so it is never applied in someone else's name.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.utils.crypto import constant_time_compare, salted_hmac

#: The service worker's cache of saved pages; offline.js empties it too.
SAVED_PAGES = "thud-pages"
#: The header a queued entry is sent with: the ``queue_owner`` of the person who queued it.
QUEUED_BY = "X-Thud-Queued-By"


def queue_owner(user) -> str:
    """An opaque name of the logged-in ``user`` ("" for nobody): the next person on the
    device reads no username or id in its storage."""
    if not user.is_authenticated:
        return ""
    return salted_hmac("thud_site.offline.queue_owner", str(user.pk)).hexdigest()[:16]


class QueuedByMiddleware:
    """Refuses (403) an entry queued by someone other than the session's logged-in user."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        queued_by = request.headers.get(QUEUED_BY)
        # Nobody logged in: the view sends it to the log-in page, which tells the page that
        # the session ended (offline.js then empties the device).
        if (
            queued_by is not None
            and request.user.is_authenticated
            and not constant_time_compare(queued_by, queue_owner(request.user))
        ):
            return HttpResponseForbidden()
        return self.get_response(request)
