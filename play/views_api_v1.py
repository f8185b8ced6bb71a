"""API v1: playing a battle by program, as the user of a personal access token.

A program reads a battle's state (``GET /battles/{id}/state``) and acts on it as one of
its players: *Ready*, a touch, a move, an end offer and its answers, a resignation.

- **Who acts**: the user of the request's token (``accounts.token_auth``:
  ``Authorization: Bearer``, scope ``play`` or ``bot``), never the session's: the cookie
  is not read, so no page's session can act here and no CSRF token is needed.
- **The same rules as the page**: each action passes the battle page's gate
  (``games.web.permissions.access_battle_for_player``: only the battle's two players) and
  calls the same workflow function of ``games.battles`` (clock, presence, outage and the
  touch rule included). No rule is written twice.
- **Compare and set**: an action that depends on the position names the ``version`` it was
  decided on (the state's). A stale one applies nothing (409); a move sent twice with the
  same version and notation is applied once, and the repeat answers the battle as it is.
- **Answers**: the battle's state after the action, or a problem (``thud_site.problems``):
  409 for what the battle's state refuses (stale, out of turn, the clock stopped, over),
  422 for what was sent (not a legal move, not a square, a bad body), 403 for someone who
  does not play the battle or a token without the scope, 401 without a valid token, 429
  past the token's rate (with ``Retry-After``).

Routed by ``front/api_v1.py``, which turns these refusals into problems.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router, Schema
from ninja.security import HttpBearer

from accounts.models import TokenScope
from accounts.token_auth import token_user
from games.battles import agreements, joining
from games.battles.errors import UnreadableRecord
from games.battles.play import accept_end, decline_end, offer_end, resign, submit_move
from games.battles.play import touch as touch_piece
from games.battles.settle import settle
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock_face
from games.web import permissions, presenters
from thud_site.problems import Problem

router = Router(tags=["play"])

#: A token may play with either scope: ``play`` (a person's program) or ``bot``.
PLAYING_SCOPES = (TokenScope.PLAY, TokenScope.BOT)
#: Reading a battle's state is a reader's right too.
READING_SCOPES = (TokenScope.READ, *PLAYING_SCOPES)


class TokenAuth(HttpBearer):
    """A personal access token with one of ``scopes``; the request's ``auth`` is its user.

    ``token_user`` reads the header itself, so a missing or malformed one is refused with
    its own message (ninja's ``HttpBearer`` would only say "Unauthorized")."""

    def __init__(self, scopes: tuple[str, ...]) -> None:
        super().__init__()
        self.scopes = scopes

    def __call__(self, request: HttpRequest) -> User:
        user, _token = token_user(request, self.scopes, now=timezone.now())
        return user

    def authenticate(self, request: HttpRequest, token: str) -> User:  # pragma: no cover
        raise NotImplementedError("__call__ reads the header")


class TokenRequest(HttpRequest):
    """A request let through by ``TokenAuth``: ``auth`` is the token's user."""

    auth: User


PLAYING = TokenAuth(PLAYING_SCOPES)
READING = TokenAuth(READING_SCOPES)

#: What an action may answer besides its state (front/api_v1.py makes them problems).
REFUSALS: dict[int, type[Problem]] = {
    401: Problem,
    403: Problem,
    404: Problem,
    409: Problem,
    422: Problem,
    429: Problem,
}


class ClockOut(Schema):
    """The clock as ``games.rules.clock_face.countdown`` gives it: a running clock's ends
    (epoch ms: compare with ``server_now_ms``), or a stopped one's frozen time left."""

    ends_ms: int | None
    think_ends_ms: int | None
    frozen_ms: int | None
    frozen_think_ms: int | None


class StateOut(Schema):
    id: int
    game: str
    #: The battle's status: pending (waiting for its players), running, paused,
    #: needs_referee, finished.
    status: str
    #: The side the token's user plays, or null for a spectator.
    you: str | None
    side_to_move: str | None
    ply: int
    max_plies: int | None
    #: Send it back with an action: the battle as the action was decided on.
    version: int
    #: The position in the game's own text (Thud: the diagram ``python -m games.thud``
    #: reads).
    position: str
    #: The square a player touched this turn (they must move that piece), or null.
    touched: str | None
    end_offered_by: str | None
    #: The battle waits for both players' Ready before its clock starts.
    awaits_players: bool
    timed: bool
    think_ms: int
    move_ms: int
    clock: ClockOut
    server_now_ms: int
    scores: dict[str, int]
    winner: str | None
    finished_reason: str | None


class VersionIn(Schema):
    version: int


class MoveIn(VersionIn):
    #: The move in the game's canonical notation (what its engine prints).
    move: str


class TouchIn(VersionIn):
    square: str


def settled_battle(user: Any, battle_id: int) -> Battle:
    """The battle for anyone who may watch it, its clock settled as the page settles it
    (read again if that changed it)."""
    battle = permissions.access_battle_public(user, battle_id)
    if not battle.board_readable:
        raise UnreadableRecord(_("This battle's record cannot be read."), battle)
    after = settle(battle_id, via=ClockEvent.Via.READ, now=timezone.now(), loaded=battle)
    if after.clock_version != battle.clock_version:
        battle = permissions.access_battle_public(user, battle_id)
    return battle


def state_of(user: Any, battle: Battle, *, now: datetime) -> dict[str, Any]:
    game = battle.rules
    running = battle.status == Battle.Status.RUNNING
    return {
        "id": battle.pk,
        "game": battle.game,
        "status": battle.status,
        "you": permissions.battle_side_of(user, battle),
        "side_to_move": battle.side_to_move if running else None,
        "ply": battle.ply,
        "max_plies": battle.max_plies,
        "version": battle.clock_version,
        "position": game.serialise(presenters.state_of(battle)),
        "touched": battle.touched_square or None,
        "end_offered_by": battle.end_offered_by or None,
        "awaits_players": battle.presence_state.awaiting,
        "timed": battle.timed,
        "think_ms": battle.think_ms,
        "move_ms": battle.move_ms,
        "clock": clock_face.countdown(battle.clock_state),
        "server_now_ms": int(now.timestamp() * 1000),
        "scores": battle.scores or {},
        "winner": battle.winner or None,
        "finished_reason": battle.finished_reason or None,
    }


def _answer(request: TokenRequest, battle_id: int) -> dict[str, Any]:
    """The battle after an action, read again through the gate."""
    battle = permissions.access_battle_public(request.auth, battle_id)
    return state_of(request.auth, battle, now=timezone.now())


@router.get("/battles/{int:battle_id}/state", response={200: StateOut, **REFUSALS}, auth=READING)
def battle_state(request: TokenRequest, battle_id: int):
    """The battle now, for anyone who may watch it (its clock settled first)."""
    battle = settled_battle(request.auth, battle_id)
    return state_of(request.auth, battle, now=timezone.now())


@router.post("/battles/{int:battle_id}/ready", response={200: StateOut, **REFUSALS}, auth=PLAYING)
def ready(request: TokenRequest, battle_id: int):
    """The player is at the battle (the page's *Ready*); the second of the two starts its
    clock. Saying it twice joins once."""
    _battle, side = permissions.access_battle_for_player(request.auth, battle_id)
    joining.join(battle_id, side=side, now=timezone.now())
    return _answer(request, battle_id)


@router.post("/battles/{int:battle_id}/touch", response={200: StateOut, **REFUSALS}, auth=PLAYING)
def touch(request: TokenRequest, battle_id: int, body: TouchIn):
    """Touch a piece (binding where the battle's rule is touch-move: only it may move)."""
    _battle, side = permissions.access_battle_for_player(request.auth, battle_id)
    touch_piece(battle_id, side=side, version=body.version, square=body.square, now=timezone.now())
    return _answer(request, battle_id)


@router.post("/battles/{int:battle_id}/move", response={200: StateOut, **REFUSALS}, auth=PLAYING)
def move(request: TokenRequest, battle_id: int, body: MoveIn):
    """Play a move in the game's canonical notation, decided on the state's ``version``."""
    battle, side = permissions.access_battle_for_player(request.auth, battle_id)
    submit_move(
        battle_id,
        side=side,
        version=body.version,
        notation=body.move.strip(),
        now=timezone.now(),
        loaded=battle,
    )
    return _answer(request, battle_id)


_END_OFFERS = {
    "offer": offer_end,
    "accept": accept_end,
    "decline": decline_end,
    "withdraw": agreements.withdraw_end,
}


@router.post(
    "/battles/{int:battle_id}/end-offer/{action}",
    response={200: StateOut, **REFUSALS},
    auth=PLAYING,
)
def end_offer(
    request: TokenRequest,
    battle_id: int,
    action: Literal["offer", "accept", "decline", "withdraw"],
):
    """Offer to end the battle by agreement as it stands, or answer the opponent's offer."""
    _battle, side = permissions.access_battle_for_player(request.auth, battle_id)
    _END_OFFERS[action](battle_id, side=side, now=timezone.now())
    return _answer(request, battle_id)


@router.post("/battles/{int:battle_id}/resign", response={200: StateOut, **REFUSALS}, auth=PLAYING)
def resign_battle(request: TokenRequest, battle_id: int, body: VersionIn):
    """Resign a casual battle. The page asks first; here the request is the answer, and
    its ``version`` says which position it was decided on."""
    _battle, side = permissions.access_battle_for_player(request.auth, battle_id)
    resign(battle_id, side=side, version=body.version, now=timezone.now())
    return _answer(request, battle_id)
