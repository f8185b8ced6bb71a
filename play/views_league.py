"""The engine league's page (``/play/league/``), public: the bots' ratings and latest
matches of one game (``play.league``)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engines import registry
from thud_site.http import HtmxHttpRequest

from . import league as league_lib


@require_GET
def league(request: HtmxHttpRequest) -> HttpResponse:
    """One game's engine league (``?game=``, the default game without it); an unknown game
    answers 404 with the page saying so."""
    games = [(g.key, _(g.name)) for g in registry.all_games()]  # noqa: INT001
    game = request.GET.get("game", registry.DEFAULT)
    context: dict[str, object] = {"games": games, "game": game}
    if game not in dict(games):
        return render(request, "play/league.html", {**context, "unknown": True}, status=404)
    context["league"] = league_lib.league(game, now=timezone.now())
    context["game_name"] = dict(games)[game]
    return render(request, "play/league.html", context)
