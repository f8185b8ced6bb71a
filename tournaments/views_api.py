"""Read-only JSON API. Only published rounds are visible; errors are JSON too."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import Http404, JsonResponse
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest

from . import permissions
from .models import Tournament
from .rounds import load_standings, public_matches, standings_json


def json_404(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
    @wraps(view)
    def wrapper(request, *args, **kwargs) -> JsonResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404 as exc:
            return JsonResponse({"error": str(exc) or "Not found"}, status=404)

    return wrapper


def tournament_json(t: Tournament) -> dict:
    return {
        "slug": t.slug,
        "name": t.name,
        "format": t.format,
        "variant": t.variant,
        "capture_policy": t.capture_policy,
        "rounds": t.rounds,
        "status": t.status,
        "venue": t.venue,
        "start_date": t.start_date.isoformat() if t.start_date else None,
        "end_date": t.end_date.isoformat() if t.end_date else None,
    }


@require_GET
def tournament_list(request: HtmxHttpRequest) -> JsonResponse:
    data = [tournament_json(t) for t in Tournament.objects.all()]
    return JsonResponse(data, safe=False)


@require_GET
@json_404
def tournament_detail(request: HtmxHttpRequest, slug: str) -> JsonResponse:
    tournament = permissions.access_tournament_public(slug)
    data = tournament_json(tournament)
    data["published_rounds"] = list(
        tournament.round_set.exclude(status="draft").values_list("number", flat=True)
    )
    return JsonResponse(data)


@require_GET
@json_404
def round_pairings(request: HtmxHttpRequest, slug: str, number: int) -> JsonResponse:
    tournament = permissions.access_tournament_public(slug)
    _round, matches = public_matches(tournament, number)
    data = [
        {
            "table": m.table,
            "player_a": m.player_a.player.name,
            "player_b": m.player_b.player.name if m.player_b else None,
            "result_status": m.result_status,
        }
        for m in matches
    ]
    return JsonResponse(data, safe=False)


@require_GET
@json_404
def standings(request: HtmxHttpRequest, slug: str) -> JsonResponse:
    tournament = permissions.access_tournament_public(slug)
    return JsonResponse(standings_json(load_standings(tournament)), safe=False)
