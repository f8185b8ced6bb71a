"""Game records and replays: ``record.txt`` downloads, a tournament's records, the replay.

Each view gates first (``games.permissions``: a battle of a draft round is a 404 to
everyone but its referees), then reads the battle with its moves in a fixed number of
queries (``games.archive``) and renders.
"""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.models.battle import Battle
from thud_site.http import HtmxHttpRequest

from . import archive, permissions, presenters

TEXT = "text/plain; charset=utf-8"


def _download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=TEXT)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _battle_with_moves(request: HtmxHttpRequest, battle_id: int) -> Battle:
    permissions.access_battle_record(request.user, battle_id)
    return archive.with_moves(Battle.objects.filter(pk=battle_id)).get()


@require_GET
def battle_record(request: HtmxHttpRequest, battle_id: int):
    battle = _battle_with_moves(request, battle_id)
    match = battle.tournament_match()
    name = f"{match.round.tournament.slug}-r{match.round.number}-t{match.table}-b{battle.number}"
    return _download(archive.record_text(battle), f"{name}.txt")


@require_GET
def tournament_records(request: HtmxHttpRequest, slug: str):
    """Every battle of the tournament's public rounds, as one file."""
    tournament = permissions.access_tournament_public(slug)
    text = archive.tournament_record_text(archive.tournament_battles(tournament))
    return _download(text, f"{tournament.slug}-records.txt")


@require_GET
def replay(request: HtmxHttpRequest, battle_id: int):
    """The battle move by move; ``?ply=N`` shows the position after N plies."""
    battle = _battle_with_moves(request, battle_id)
    moves = archive.moves_of(battle)
    ply = presenters.ply_in(request.GET.get("ply", str(len(moves))), moves)
    if ply is None:
        return HttpResponseBadRequest(presenters.bad_ply_message(moves))
    context = presenters.replay_context(battle, moves, ply)
    return render(request, "games/replay.html", context)
