"""Site-wide pages that belong to no single app: the rules of each game."""

from __future__ import annotations

from django.db.models import Field
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.engines import registry
from games.web import presenters
from thud_site.http import HtmxHttpRequest
from tournaments.models.tournament import Tournament


def tournament_default(field: str) -> int:
    """A tournament setting's default, so the rules page quotes the numbers in force."""
    found = Tournament._meta.get_field(field)
    assert isinstance(found, Field)  # a column of the tournament, not a relation
    return found.default


@require_GET
def rules(request: HtmxHttpRequest, game: str = registry.DEFAULT) -> HttpResponse:
    """How to play ``game``, in the visitor's language, with its starting position drawn."""
    try:
        rules_of = registry.get(game)
    except KeyError:
        raise Http404("no such game") from None
    context = presenters.rules_context(rules_of) | {
        "game": rules_of,
        "think_s": tournament_default("think_ms") // 1000,
        "move_s": tournament_default("move_ms") // 1000,
        "forfeits": tournament_default("max_consecutive_forfeits"),
        "win": tournament_default("points_win"),
        "draw": tournament_default("points_draw"),
        "loss": tournament_default("points_loss"),
    }
    return render(request, context["presentation"].rules_template, context)
