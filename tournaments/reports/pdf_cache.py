"""PDFs rendered once per content version, and never twice at once.

A PDF costs seconds of CPU (WeasyPrint), and anonymous visitors can ask for many at
once: eight parallel renders of one report took the home page from 54 ms to 7.3 s.

- Each PDF is cached under its *content version*: the tournament's standings
  fingerprint (``rounds.standings_fingerprint``, which every result, round and entry
  change moves) or a round's own (``round_fingerprint``), the language, and the
  document. A player renamed after the fact is not in the fingerprint: the cache
  expires after ``PDF_CACHE_S`` for that.
- Concurrent requests for a PDF being rendered coalesce: one request renders it (its
  lock is a ``cache.add``), the others wait up to ``WAIT_S`` for the result, then
  answer 503 with ``Retry-After`` and a page that reloads itself, so that waiting
  visitors never hold the web workers everyone else needs.
- Without Redis (the cache misses, ``redis_down``) every request renders its own:
  slower, never wrong.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.rounds.reads import standings_fingerprint

PDF_CACHE_S = 300
#: How long the render itself may take before another request may start one.
RENDER_LOCK_S = 60
#: How long a request waits for another's render before answering "being prepared":
#: short, because every waiting request holds a web worker (bench/floods.py: with 1 s,
#: the home page waited up to 2 s behind eight PDF requests; with 0.2 s, far less).
WAIT_S = 0.2
POLL_S = 0.1
RETRY_AFTER_S = 2


def round_fingerprint(round_: Round) -> str:
    """Changes with the round's status and any of its matches' tables, players or results."""
    matches = round_.matches.order_by("pk").values_list(
        "pk", "table", "player_a_id", "player_b_id", "lock_version"
    )
    parts = (round_.pk, round_.status, round_.tournament.created_at.timestamp(), tuple(matches))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def tournament_version(tournament: Tournament) -> str:
    return f"{tournament.pk}:{standings_fingerprint(tournament)}"


def report_version(tournament: Tournament) -> str:
    """The standings' version and what else decides podium or leaders (``stage.py``):
    closing the tournament or changing its planned rounds gives a new report PDF."""
    stage_inputs = f"{tournament.status}:{tournament.rounds}:{tournament.has_knockout}"
    return f"{tournament_version(tournament)}:{stage_inputs}"


def cached_pdf(
    request: HttpRequest,
    *,
    document: str,
    version: str,
    render_pdf: Callable[[], bytes],
    filename: str,
) -> HttpResponse:
    """The PDF ``document`` at content ``version``, from the cache, rendered by this
    request, or (while another request renders it) a 503 asking to retry shortly."""
    key = f"pdf:{document}:{get_language()}:{version}"
    pdf = cache.get(key)
    if pdf is None and not _lock(key):
        pdf = _wait_for(key)
        if pdf is None:
            return _being_prepared(request)
    if pdf is None:
        try:
            pdf = render_pdf()
            cache.set(key, pdf, PDF_CACHE_S)
        finally:
            cache.delete(f"{key}:rendering")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _lock(key: str) -> bool:
    """True if this request is to render (it got the lock, or Redis is down)."""
    return cache.add(f"{key}:rendering", 1, RENDER_LOCK_S) or getattr(cache, "redis_down", False)


def _wait_for(key: str) -> bytes | None:
    end = time.monotonic() + WAIT_S
    while time.monotonic() < end:
        time.sleep(POLL_S)
        pdf = cache.get(key)
        if pdf is not None:
            return pdf
    return None


def _being_prepared(request: HttpRequest) -> HttpResponse:
    response = render(
        request, "tournaments/pdf_preparing.html", {"retry_s": RETRY_AFTER_S}, status=503
    )
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response
