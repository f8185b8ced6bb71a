"""API v1: challenges by program, as the user of a personal access token (issue 45: a bot
can be challenged and accept, and challenge others).

A program lists its user's open challenges (``GET /challenges``: received and sent),
challenges a user by name (``POST /challenges``), and answers a challenge: accept (the
opponent; the answer names the battle it created), decline (the opponent), cancel (the
challenger).

- **Who acts**: the user of the request's token, scope ``play`` or ``bot``
  (``play.views_api_v1.PLAYING``); the session is never read.
- **The same rules as the start page**: a new challenge is the start page's form
  (``play.forms.ChallengeForm``) bound to the body's fields, then the same call of
  ``play.challenges.create_challenge``; the answers are its ``accept``, ``decline`` and
  ``cancel``, with their conditional updates (one challenge makes at most one battle). The
  lists are the start page's (``play.queries``). No rule is written twice.
- **Accepting twice applies once**: the second finds the challenge no longer open and is
  refused (409, "This challenge is no longer open to you."), as the page refuses it, so
  the battle is named in the first answer only.
- **Answers**: the challenge (201 when made, 200 when answered), or a problem
  (``thud_site.problems``):

  - 422 for what was sent: a bad body, an unknown game, timing, side, days or move
    limit, no such user, yourself (the form's messages in ``errors``, each ``loc``
    naming the body's field);
  - 409 for what the offers' state refuses (``play.challenges.ChallengeError``, in the
    page's words): no longer open, expired, not its opponent (accept, decline) or its
    challenger (cancel), and the flood limits (too many live offers, a live challenge
    to the same user already, too many received by that user in an hour). The limits
    are 409, not 429: they count stored offers, which answering or withdrawing one
    changes, and 429 in this API means the token's request rate, with ``Retry-After``;
  - 404 for a challenge the user neither made nor received, unless it is a public seek
    (anyone may accept one): their lists do not show it, so it is not there for them;
  - 403 for a token without the scope, 401 without a valid token, 429 past its rate.

Routed by ``front/api_v1.py``, which turns these refusals into problems.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from ninja import Field, Router, Schema, Status
from ninja.errors import ValidationError

from play import challenges, queries
from play.forms import ChallengeForm
from play.models import Challenge
from play.views_api_v1 import PLAYING, REFUSALS, TokenRequest

router = Router(tags=["challenges"])

#: The body's name of a form field, where they differ (the form asks for a username).
_BODY_NAMES = {"username": "opponent"}


class ChallengeIn(Schema):
    #: The username of the user challenged (any case).
    opponent: str = Field(min_length=1, pattern=r"\S")
    #: A game's key (``GET /games``' keys).
    game: str
    #: ``quickfire`` or ``correspondence``.
    timing: str
    #: Correspondence: days per move.
    days: int = 3
    #: Quickfire: the battle ends after this many moves by each side (the site's default
    #: when null).
    move_limit: int | None = None
    #: Who plays the first side, which moves first: ``challenger``, ``opponent`` or
    #: ``random``.
    first: str = Challenge.First.RANDOM
    #: Two battles with the sides swapped, rated like a tournament match.
    rated_match: bool = False


class ChallengeOut(Schema):
    id: int
    game: str
    timing: str
    days: int
    move_limit: int
    first: str
    rated_match: bool
    #: open, accepted, declined, cancelled or expired.
    status: str
    challenger: str
    #: The user challenged; null for a public seek.
    opponent: str | None
    created_at: datetime
    #: An open challenge is refused from this moment on.
    expires_at: datetime
    #: The battle its acceptance created (a rated match's first battle), or null.
    battle: int | None


class ChallengesOut(Schema):
    #: Open challenges made to the token's user, newest first.
    received: list[ChallengeOut]
    #: Open challenges and seeks the token's user made, newest first.
    sent: list[ChallengeOut]


def challenge_out(challenge: Challenge) -> dict[str, Any]:
    opponent = challenge.opponent
    return {
        "id": challenge.pk,
        "game": challenge.game,
        "timing": challenge.timing,
        "days": challenge.days,
        "move_limit": challenge.move_limit,
        "first": challenge.first,
        "rated_match": challenge.rated_match,
        "status": challenge.status,
        "challenger": challenge.challenger.get_username(),
        "opponent": opponent.get_username() if opponent is not None else None,
        "created_at": challenge.created_at,
        "expires_at": challenge.expires_at,
        "battle": challenge.battle_id,
    }


def _concerning(user: Any, challenge_id: int) -> Challenge:
    """The challenge if ``user`` made it or received it, or it is a seek (anyone may
    accept one); else a 404, as for one that does not exist."""
    mine = Q(challenger=user) | Q(opponent=user) | Q(opponent__isnull=True)
    found = (
        Challenge.objects.filter(mine, pk=challenge_id)
        .select_related("challenger", "opponent")
        .first()
    )
    if found is None:
        raise Http404("No such challenge")
    return found


def _invalid(form: ChallengeForm) -> ValidationError:
    """The form's refusals as a 422's ``errors``, located in the body's fields."""
    errors = [
        {
            "loc": ["body", _BODY_NAMES.get(name, name)] if name != "__all__" else ["body"],
            "msg": error["message"],
            "type": error["code"] or "value_error",
        }
        for name, field_errors in form.errors.get_json_data().items()
        for error in field_errors
    ]
    return ValidationError(errors)


@router.get("/challenges", response={200: ChallengesOut, **REFUSALS}, auth=PLAYING)
def open_challenges(request: TokenRequest):
    """The token's user's open challenges: received, and sent (seeks included)."""
    now = timezone.now()
    return {
        "received": [challenge_out(c) for c in queries.challenges_received(request.auth, now=now)],
        "sent": [challenge_out(c) for c in queries.challenges_made(request.auth, now=now)],
    }


@router.post("/challenges", response={201: ChallengeOut, **REFUSALS}, auth=PLAYING)
def make_challenge(request: TokenRequest, body: ChallengeIn):
    """Challenge a user by name, with the start page's choices; it waits for their answer
    until ``expires_at``."""
    form = ChallengeForm(
        data={**body.model_dump(exclude={"opponent"}), "username": body.opponent},
        user=request.auth,
    )
    if not form.is_valid():
        raise _invalid(form)
    challenge = form.create(by=request.auth, now=timezone.now())
    return Status(201, challenge_out(challenge))


@router.post(
    "/challenges/{int:challenge_id}/accept",
    response={200: ChallengeOut, **REFUSALS},
    auth=PLAYING,
)
def accept_challenge(request: TokenRequest, challenge_id: int):
    """Accept a challenge made to the token's user (or a public seek): the answer's
    ``battle`` is the battle created (a quickfire one waits for both players' Ready,
    ``POST /battles/{id}/ready``)."""
    _concerning(request.auth, challenge_id)
    challenges.accept(challenge_id, by=request.auth, now=timezone.now())
    return challenge_out(_concerning(request.auth, challenge_id))


@router.post(
    "/challenges/{int:challenge_id}/decline",
    response={200: ChallengeOut, **REFUSALS},
    auth=PLAYING,
)
def decline_challenge(request: TokenRequest, challenge_id: int):
    """Decline a challenge made to the token's user."""
    _concerning(request.auth, challenge_id)
    challenges.decline(challenge_id, by=request.auth, now=timezone.now())
    return challenge_out(_concerning(request.auth, challenge_id))


@router.post(
    "/challenges/{int:challenge_id}/cancel",
    response={200: ChallengeOut, **REFUSALS},
    auth=PLAYING,
)
def cancel_challenge(request: TokenRequest, challenge_id: int):
    """Withdraw a challenge or seek the token's user made."""
    _concerning(request.auth, challenge_id)
    challenges.cancel(challenge_id, by=request.auth, now=timezone.now())
    return challenge_out(_concerning(request.auth, challenge_id))
