"""Public report pages: statistics by side, the crosstable and the final report.

Each view is a public gate, one loader from ``tournaments.reports.loaders`` and a render; every
page runs a constant number of queries whatever the number of players or battles.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest
from tournaments.models.tournament import DEFAULT_GAME
from tournaments.permissions.tournament_gates import access_player_public, access_tournament_public
from tournaments.reports import loaders


@require_GET
def site_stats(request: HtmxHttpRequest) -> HttpResponse:
    stats = loaders.site_stats(game=DEFAULT_GAME)
    context = {"stats": stats, "chart": loaders.side_chart(stats, title=_("Battles won by side"))}
    return render(request, "tournaments/stats.html", context)


@require_GET
def tournament_stats(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)
    stats = loaders.tournament_stats(t)
    context = {
        "tournament": t,
        "rounds": t.round_set.counted().order_by("number"),
        "stats": stats,
        "chart": loaders.side_chart(stats, title=_("Battles won by side")),
    }
    return render(request, "tournaments/stats.html", context)


@require_GET
def player_stats(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    player = access_player_public(player_id)
    stats = loaders.player_stats(player, game=DEFAULT_GAME)
    entries = player.entries.select_related("tournament").order_by("-tournament__start_date", "pk")
    context = {
        "player": player,
        "entries": entries,
        "stats": stats,
        "chart": loaders.side_chart(stats, title=_("Battles by outcome")),
    }
    return render(request, "tournaments/stats.html", context)


@require_GET
def crosstable(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)
    data = loaders.event_data(t)
    standings = loaders.event_standings(t, data)
    context = {
        "tournament": t,
        "rounds": t.round_set.counted().order_by("number"),
        "crosstable": loaders.event_crosstable(data, standings),
        "round_numbers": list(range(1, max(data.rounds, default=0) + 1)),
    }
    return render(request, "tournaments/crosstable.html", context)


@require_GET
def report(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)
    context = loaders.report_context(t)
    context["rounds"] = t.round_set.counted().order_by("number")
    return render(request, "tournaments/report.html", context)
