"""A player's own page: by their personal link (``/p/<token>/``, no login) or from their
account (``/t/<slug>/me/``).

It lives in the roof (``front``), like the home page, because it shows the battles of the
player's match (``games``) beside their tournament facts (``tournaments``), and
``tournaments`` never imports ``games``. The page follows the tournament's live state as
the hall screen does (its stream, ``games.web.views_hall.hall_events``): ``static/js/player_page.js``
refetches the ``#my-round`` panel (the tournament's status, the check-in, the round) on each
change and on each state of the player's own battles, and raises a browser notification
(with permission) when the next round is published.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from games.models.battle import Battle
from games.web.presenters_hall import hall_line
from thud_site.http import AuthedRequest, HtmxHttpRequest
from tournaments.models.tournament import Entry
from tournaments.organising.personal_links import personal_path
from tournaments.permissions.tournament_gates import access_entry_by_token, access_own_entry
from tournaments.rounds.player_page import load_player_page

#: Battles being played (their states refresh the page), nobody waited for.
LIVE = (Battle.Status.RUNNING, Battle.Status.PAUSED, Battle.Status.NEEDS_REFEREE)


def battles_of(page, *, now: datetime) -> list[dict]:
    """Both battles of the current match with, for each, the side the player has,
    whether it is being played, and (a running timed battle) its two clocks as of ``now``,
    as the hall screen shows them."""
    if page.match is None or page.match.is_bye:
        return []
    battles = {
        b.number: b
        for b in Battle.objects.filter(match=page.match).select_related(
            "match", "first_entry__player", "second_entry__player"
        )
    }
    words = page.tournament.words
    mine = (words["first_side"], words["second_side"])
    if not page.first_side_first:
        mine = mine[::-1]
    rows = []
    for number, side in zip((1, 2), mine, strict=True):
        battle = battles.get(number)
        live = (
            battle is not None
            and battle.mode == Battle.Mode.ONLINE
            and battle.status in LIVE
            and not battle.presence_state.awaiting  # following it must not join it
        )
        clock = None
        if live and battle is not None and battle.status == Battle.Status.RUNNING and battle.timed:
            clock = hall_line(battle, now=now)
        rows.append(
            {"number": number, "side": side, "battle": battle, "live": live, "clock": clock}
        )
    return rows


def _render(request: HtmxHttpRequest, entry: Entry, *, personal: bool) -> HttpResponse:
    page = load_player_page(entry)
    context = {
        "page": page,
        "tournament": page.tournament,
        "battles": battles_of(page, now=timezone.now()),
        "words": page.tournament.words,
        "personal": personal,
        "personal_url": request.build_absolute_uri(personal_path(entry)) if not personal else "",
    }
    template = "tournaments/my_page.html"
    if request.htmx:
        template += "#my-round"
    response = render(request, template, context)
    if personal:
        # The token is in the URL: no referrer to other sites, and no shared caches.
        response["Referrer-Policy"] = "no-referrer"
        response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def personal_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    return _render(request, access_entry_by_token(token), personal=True)


@login_required
@require_GET
def my_page(request: AuthedRequest, slug: str) -> HttpResponse:
    return _render(request, access_own_entry(request.user, slug), personal=False)
