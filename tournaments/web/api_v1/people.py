"""API v1: the site's and a player's statistics, and the ratings.

``game`` picks the game (the site's default game if left out: the old API's statistics
were of the default game only); an unknown game is a 422 problem, as any bad parameter.
A player is public (``access_player_public``: an unknown id is a 404).
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router
from ninja.errors import ValidationError
from ninja.pagination import paginate

from thud_site.problems import INVALID, NOT_FOUND
from tournaments.models.tournament import DEFAULT_GAME
from tournaments.permissions.tournament_gates import access_player_public
from tournaments.rating import reads
from tournaments.reports import loaders
from tournaments.web.api_v1.schemas import (
    PlayerRatingsOut,
    PlayerStatsOut,
    RatingOut,
    StatsOut,
    stats_data,
)
from tournaments.web.api_v1.tournaments import Pages

router = Router()


def _game(game: str) -> str:
    """``game`` if the site has it, else a 422 like any bad parameter (a query schema
    would say it too, but its annotation is not resolved under ``@paginate``)."""
    try:
        return reads.check_game(game)
    except reads.UnknownGame as exc:
        raise ValidationError(
            [{"loc": ["query", "game"], "msg": str(exc), "type": "value_error"}]
        ) from exc


@router.get("/stats", response={200: StatsOut, **INVALID}, tags=["statistics"])
def site_stats(request: HttpRequest, game: str = DEFAULT_GAME):
    """Battles won by each side over every confirmed result on the site."""
    return stats_data(loaders.site_stats(game=_game(game)))


@router.get(
    "/players/{int:player_id}/stats",
    response={200: PlayerStatsOut, **NOT_FOUND, **INVALID},
    tags=["statistics"],
)
def player_stats(request: HttpRequest, player_id: int, game: str = DEFAULT_GAME):
    """One player's battles in every tournament, from their point of view."""
    player = access_player_public(player_id)
    stats = stats_data(loaders.player_stats(player, game=_game(game)))
    return {"player": player.pk, "name": player.name, **stats}


@router.get("/ratings", response={200: list[RatingOut], **INVALID}, tags=["ratings"])
@paginate(Pages)
def ratings(request: HttpRequest, game: str = DEFAULT_GAME):
    """The game's rated players, best first."""
    return [r.as_json() for r in reads.rating_list(_game(game))]


@router.get(
    "/players/{int:player_id}/ratings",
    response={200: PlayerRatingsOut, **NOT_FOUND, **INVALID},
    tags=["ratings"],
)
def player_ratings(request: HttpRequest, player_id: int, game: str = DEFAULT_GAME):
    """A player's rating in the game and its history, period by period."""
    player = access_player_public(player_id)
    game = _game(game)
    current = reads.rating_of(player, game)
    return {
        "player": player.pk,
        "name": player.name,
        "game": game,
        "current": None if current is None else current.as_json(),
        "history": [c.as_json() for c in reads.history(player, game)],
    }
