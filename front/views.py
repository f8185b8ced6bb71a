"""Site-wide pages that belong to no single app: the rules of each game, and the JavaScript
catalog."""

from __future__ import annotations

from typing import cast

from django.db.models import Field
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_safe
from django.views.i18n import JavaScriptCatalog

from games.engines import registry
from games.web import presenters
from thud_site.conditional import conditional
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


_catalog_view = JavaScriptCatalog.as_view()
#: The catalog's body per language, made by Django's view at its first request in this
#: process: it changes only with the code and its compiled translations, and a deploy
#: starts new processes.
_catalogs: dict[str, tuple[bytes, str]] = {}


@require_safe
def javascript_catalog(request: HtmxHttpRequest) -> HttpResponse:
    """Django's JavaScript catalog (``JavaScriptCatalog``), which every page loads: made
    once per language, and answered 304 to a browser that holds it (issue 44: it cost
    1.5 ms of CPU on every page view)."""
    language = get_language()
    made = _catalogs.get(language)
    if made is None:
        response = cast(HttpResponse, _catalog_view(request))  # the view answers one
        made = _catalogs[language] = (response.content, response["Content-Type"])
    body, content_type = made
    return conditional(request, HttpResponse(body, content_type=content_type))
