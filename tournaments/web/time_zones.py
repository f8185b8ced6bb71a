"""Every time on a tournament's pages in the tournament's time zone (``Tournament.time_zone``).

A middleware, keyed on the URL: a tournament's pages name it by ``slug``. Other pages keep
the site's ``TIME_ZONE``. The battle pages (``games``) are not looked up here, for the
referee's presses must stay at one query for the battle: the battle already holds its
tournament, and its template shows its times in ``Battle.time_zone``. Stored times stay in
UTC; only what is shown changes (``timezone.activate``). The tournament read here goes
with the request (``tournament_read``): the public pages' gate takes it from there.
"""

from __future__ import annotations

import contextlib
import zoneinfo
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from tournaments.permissions.tournament_gates import find_tournament


class TournamentTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        if "slug" not in view_kwargs:
            return
        # The whole row, kept on the request for the page's gate: one read
        # (``tournament_gates.access_tournament_public``).
        tournament = find_tournament(view_kwargs["slug"])
        request.tournament_read = tournament  # type: ignore[attr-defined]
        if tournament is not None and tournament.time_zone:
            # A zone the server no longer knows: the site's.
            with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.activate(zoneinfo.ZoneInfo(tournament.time_zone))
