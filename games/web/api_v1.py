"""API v1: a tournament's battles and one battle with its moves (the game record).

The old API's data (``games.archive.export.battle_data``) with its sides as a list: one
schema whatever the game, the side's word (``battle.rules.words``, e.g. "white") a
value. Gated by the old API's gates (``games.web.permissions``): a draft round's battles
never appear, not even to its referees. Routed by ``front/api_v1.py``.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from ninja import Router, Schema
from ninja.pagination import PageNumberPagination, paginate

from games.archive import export as archive
from games.models.battle import Battle
from games.rules.records import FORFEIT
from games.web import permissions
from thud_site.problems import INVALID, NOT_FOUND

router = Router(tags=["battles"])


class Pages(PageNumberPagination):
    def __init__(self, **kwargs) -> None:
        super().__init__(page_size=100, max_page_size=500, **kwargs)


class PlayerOut(Schema):
    id: int
    name: str


class SideOut(Schema):
    side: str
    player: PlayerOut
    #: The side's counted numbers once there is a result (Thud: survivors).
    result: int | None


class BattleOut(Schema):
    id: int
    round: int
    table: int
    number: int
    mode: str
    status: str
    sides: list[SideOut]
    termination: str | None
    #: The winning side's word, "draw", or null without a result.
    winner: str | None
    url: str
    record_url: str


class BattleDetailOut(BattleOut):
    tournament: str
    #: The moves in the game's canonical notation; a forfeited turn is ``FORFEIT``.
    moves: list[str]


def _battle(request: HttpRequest, battle: Battle) -> dict:
    data = archive.battle_data(battle)
    result = data["result"]
    sides = [
        {"side": w, "player": data[w], "result": None if result is None else result[w]}
        for w in battle.rules.words
    ]
    return {
        **{key: data[key] for key in ("id", "round", "table", "number", "mode", "status")},
        "sides": sides,
        "termination": data["termination"],
        "winner": data["winner"],
        "url": request.build_absolute_uri(reverse("api-v1:battle", args=[battle.pk])),
        "record_url": request.build_absolute_uri(reverse("games:record", args=[battle.pk])),
    }


@router.get("/tournaments/{slug}/battles", response={200: list[BattleOut], **NOT_FOUND, **INVALID})
@paginate(Pages)
def battles(request: HttpRequest, slug: str):
    """The battles of the published and finished rounds, in round, table, battle order."""
    tournament = permissions.access_tournament_public(slug)
    # The list needs no moves: one query for the battles with their players and result.
    return [_battle(request, b) for b in archive.published_battles(tournament)]


@router.get("/battles/{int:battle_id}", response={200: BattleDetailOut, **NOT_FOUND})
def battle(request: HttpRequest, battle_id: int):
    permissions.access_battle_published(battle_id)
    found = archive.with_moves(Battle.objects.filter(pk=battle_id)).get()
    return {
        **_battle(request, found),
        "tournament": found.tournament_match().round.tournament.slug,
        "moves": [FORFEIT if m is None else m for m in archive.moves_of(found)],
    }
