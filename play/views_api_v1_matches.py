"""API v1: a tournament match played online by program, as the user of a personal access
token (a player's program, or a bot account its organiser entered).

- ``GET /matches/{id}``: the match's battles (none before play began), for whoever may
  see the match; each names the side the token's user plays in it (``you``).
- ``POST /matches/{id}/play``: what the match page's *Play online* does, through the same
  gate (``access_match_for_battle_start``: one of the match's players, or a referee) and
  the same workflow (``games.battles.joining.play_online``): the battles are created if
  they are not yet, and battle 1 waits for its players, the caller joining it. Sent twice,
  or by both players at once, it creates and joins once; the answer is the match's
  battles either way. A program then plays each battle it has a side in as any other
  (``play.views_api_v1``): battle 2 is opened when battle 1 ends, and its players are told
  (a ``gameStart`` event, ``play.views_api_v1_streams``).

A program learns of its match from the ``round`` event of its event stream (the round
with its match was published: ``match``). Routed by ``front/api_v1.py``.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from ninja import Router, Schema

from games.battles import joining
from games.models.battle import Battle
from games.web import permissions

from .views_api_v1 import PLAYING, READING, REFUSALS, TokenRequest

router = Router(tags=["play"])


class MatchBattleOut(Schema):
    id: int
    #: 1 or 2: the players swap sides in battle 2.
    number: int
    #: pending (not started, or waiting for its players), running, paused,
    #: needs_referee, finished.
    status: str
    #: The battle waits for both players' Ready before its clock starts.
    awaits_players: bool
    #: The side the token's user plays in it, or null.
    you: str | None


class MatchOut(Schema):
    id: int
    round: int
    table: int
    battles: list[MatchBattleOut]


def _match(user: Any, match: Any) -> dict[str, Any]:
    battles = Battle.objects.filter(match=match).select_related(
        "first_entry__player", "second_entry__player"
    )
    return {
        "id": match.pk,
        "round": match.round.number,
        "table": match.table,
        "battles": [
            {
                "id": battle.pk,
                "number": battle.number,
                "status": battle.status,
                "awaits_players": battle.awaits_players,
                "you": permissions.battle_side_of(user, battle),
            }
            for battle in sorted(battles, key=lambda b: b.number)
        ],
    }


@router.get("/matches/{int:match_id}", response={200: MatchOut, **REFUSALS}, auth=READING)
def match_battles(request: TokenRequest, match_id: int):
    """The match's battles, and the side the token's user plays in each."""
    match = permissions.access_match_public(request.auth, match_id)
    return _match(request.auth, match)


@router.post("/matches/{int:match_id}/play", response={200: MatchOut, **REFUSALS}, auth=PLAYING)
def play_match(request: TokenRequest, match_id: int):
    """Play the match online (the match page's *Play online*): its battles, battle 1
    waiting for its players with the caller joined."""
    user = request.auth
    match = permissions.access_match_for_battle_start(user, match_id)
    joining.play_online(
        match,
        side_of=lambda battle: permissions.battle_side_of(user, battle),
        now=timezone.now(),
    )
    return _match(user, match)
