"""Battles in the read-only JSON API (stable, DESIGN.md §8): language-neutral keys.

Routed in ``thud_site/urls.py`` under ``api/`` (``tournaments`` never imports ``games``).
Draft rounds never appear; errors are JSON like the rest of the API.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.archive import export as archive
from games.models.battle import Battle
from games.rules.records import FORFEIT
from games.web import permissions
from thud_site.http import HtmxHttpRequest, json_404


@require_GET
@json_404
def battles(request: HtmxHttpRequest, slug: str) -> JsonResponse:
    tournament = permissions.access_tournament_public(slug)
    # The list needs no moves: one query for the battles with their players and result.
    rows = archive.published_battles(tournament)
    data = [archive.battle_data(b) | _links(request, b) for b in rows]
    return JsonResponse({"tournament": tournament.slug, "battles": data})


@require_GET
@json_404
def battle(request: HtmxHttpRequest, battle_id: int) -> JsonResponse:
    permissions.access_battle_published(battle_id)
    found = archive.with_moves(Battle.objects.filter(pk=battle_id)).get()
    data = archive.battle_data(found) | _links(request, found)
    data["tournament"] = found.tournament_match().round.tournament.slug
    data["moves"] = [FORFEIT if m is None else m for m in archive.moves_of(found)]
    return JsonResponse(data)


def _links(request: HtmxHttpRequest, battle: Battle) -> dict:
    return {
        "url": request.build_absolute_uri(reverse("api_battle", args=[battle.pk])),
        "record_url": request.build_absolute_uri(reverse("games:record", args=[battle.pk])),
    }
