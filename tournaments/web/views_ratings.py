"""The site's ratings, public: the list per game and a player's rating page, and their JSON
(``/api/ratings``, ``/api/players/<id>/ratings``). An unknown game answers 400 with a message."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest, json_404
from thud_site.svg import Figure
from tournaments.models.tournament import DEFAULT_GAME
from tournaments.models.wording import game_choices
from tournaments.permissions.tournament_gates import access_player_public
from tournaments.rating import reads
from tournaments.reports.rating_chart import Point, rating_chart

PAGE_SIZE = 100


def _game(request: HtmxHttpRequest) -> str:
    return reads.check_game(request.GET.get("game", DEFAULT_GAME))


def _bad_game(request: HtmxHttpRequest, exc: reads.UnknownGame) -> HttpResponse:
    return render(request, "tournaments/ratings_bad.html", {"message": str(exc)}, status=400)


@require_GET
def rating_list(request: HtmxHttpRequest) -> HttpResponse:
    try:
        game = _game(request)
    except reads.UnknownGame as exc:
        return _bad_game(request, exc)
    clubs, countries = reads.filter_choices(game)
    # A club or country no rated player has is ignored (the whole list is shown).
    club = request.GET.get("club", "") if request.GET.get("club") in clubs else ""
    codes = [code for code, _name in countries]
    country = request.GET.get("country", "") if request.GET.get("country") in codes else ""
    rows = reads.rating_list(game, club=club, country=country)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "game": game,
        "games": game_choices(),
        "clubs": clubs,
        "countries": countries,
        "club": club,
        "country": country,
        "page": page,
        "first_rank": page.start_index(),
    }
    return render(request, "tournaments/ratings.html", context)


@require_GET
def player_ratings(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    player = access_player_public(player_id)
    try:
        game = _game(request)
    except reads.UnknownGame as exc:
        return _bad_game(request, exc)
    changes = reads.history(player, game)
    context = {
        "player": player,
        "game": game,
        "games": game_choices(),
        "current": reads.rating_of(player, game),
        "changes": list(reversed(changes)),  # the latest first
        "chart": history_figure(changes) if changes else None,
    }
    return render(request, "tournaments/player_ratings.html", context)


def history_figure(changes: list[reads.Change]) -> Figure:
    caption = _("Rating after each period (the band is ± RD)")
    points = [Point(f"{i}", c.after.rating, c.after.rd) for i, c in enumerate(changes, start=1)]
    return Figure(
        id="rating-history",
        caption=caption,
        # rating_chart escapes every text it draws.
        svg=mark_safe(rating_chart(points, title=caption, labelled_by="rating-history-caption")),  # noqa: S308
        columns=[_("Period"), _("Where"), _("Rating"), _("RD"), _("Change")],
        rows=[
            (str(i), [c.where, f"{c.after.rating:.1f}", f"{c.after.rd:.1f}", c.shown_change])
            for i, c in enumerate(changes, start=1)
        ],
    )


@require_GET
def api_rating_list(request: HtmxHttpRequest) -> JsonResponse:
    try:
        game = reads.check_game(request.GET.get("game"))
    except reads.UnknownGame as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse([r.as_json() for r in reads.rating_list(game)], safe=False)


@require_GET
@json_404
def api_player_ratings(request: HtmxHttpRequest, player_id: int) -> JsonResponse:
    player = access_player_public(player_id)
    try:
        game = reads.check_game(request.GET.get("game"))
    except reads.UnknownGame as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    current = reads.rating_of(player, game)
    return JsonResponse(
        {
            "player": player.pk,
            "name": player.name,
            "game": game,
            "current": None if current is None else current.as_json(),
            "history": [c.as_json() for c in reads.history(player, game)],
        }
    )
