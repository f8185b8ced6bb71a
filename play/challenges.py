"""Challenges and seeks: create, accept (creates the battle), decline, cancel.

Accepting is one conditional ``UPDATE ... WHERE status = 'open'``: of two users
accepting the same seek at once, exactly one wins and one battle is created; the other
gets a ``ChallengeError``. The battle is created in the same transaction, so a refused
battle leaves the challenge open.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import battles, registry
from games.models import MAX_CORRESPONDENCE_DAYS, Battle

from . import notify
from .models import Challenge


class ChallengeError(Exception):
    """A refused action; ``message`` is shown to the user and nothing changed."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


def create_challenge(
    *,
    by,
    opponent=None,
    game: str,
    timing: str,
    days: int = 3,
    first: str = Challenge.First.RANDOM,
    now: datetime,
) -> Challenge:
    """Challenge ``opponent`` (a user), or open a public seek when ``opponent`` is None."""
    if opponent is not None and opponent.pk == by.pk:
        raise ChallengeError(_("You cannot challenge yourself."))
    if game not in dict(registry.choices()):
        raise ChallengeError(_("Unknown game."))
    if timing not in Battle.Timing.values:
        raise ChallengeError(_("Unknown timing."))
    if first not in Challenge.First.values:
        raise ChallengeError(_("Choose who moves first."))
    if not 1 <= days <= MAX_CORRESPONDENCE_DAYS:
        raise ChallengeError(
            _("Days per move must be between 1 and %(max)d.") % {"max": MAX_CORRESPONDENCE_DAYS}
        )
    with transaction.atomic():
        challenge = Challenge.objects.create(
            challenger=by, opponent=opponent, game=game, timing=timing, days=days, first=first
        )
        if opponent is not None:
            notify.challenge_received(challenge, now=now)
    return challenge


def accept(
    challenge_id: int, *, by, coin: Callable[[], bool] = lambda: bool(secrets.randbelow(2))
) -> Battle:
    """Accept a challenge made to ``by`` or someone else's open seek; start the battle.

    ``coin()`` decides who moves first when the challenger chose "random" (True: the
    challenger does).
    """
    with transaction.atomic():
        mine = Q(opponent=by) | Q(opponent__isnull=True)
        won = (
            Challenge.objects.filter(pk=challenge_id, status=Challenge.Status.OPEN)
            .filter(mine)
            .exclude(challenger=by)
            .update(status=Challenge.Status.ACCEPTED, opponent=by)
        )
        if won != 1:
            raise ChallengeError(_("This challenge is no longer open to you."))
        challenge = Challenge.objects.select_related("challenger").get(pk=challenge_id)
        challenger_first = {
            Challenge.First.CHALLENGER: True,
            Challenge.First.OPPONENT: False,
        }.get(challenge.first)
        if challenger_first is None:
            challenger_first = coin()
        first, second = (
            (challenge.challenger, by) if challenger_first else (by, challenge.challenger)
        )
        try:
            battle = battles.create_casual_battle(
                game=challenge.game,
                first=first,
                second=second,
                timing=challenge.timing,
                days=challenge.days,
            )
        except battles.BattleError as exc:
            transaction.set_rollback(True)
            raise ChallengeError(exc.message) from None
        Challenge.objects.filter(pk=challenge_id).update(battle=battle)
    return battle


def _close(challenge_id: int, *, condition: Q, status: str) -> None:
    updated = (
        Challenge.objects.filter(pk=challenge_id, status=Challenge.Status.OPEN)
        .filter(condition)
        .update(status=status)
    )
    if updated != 1:
        raise ChallengeError(_("This challenge is no longer open to you."))


def decline(challenge_id: int, *, by) -> None:
    """The challenged user says no (a seek cannot be declined, only left open)."""
    _close(challenge_id, condition=Q(opponent=by), status=Challenge.Status.DECLINED)


def cancel(challenge_id: int, *, by) -> None:
    """The challenger withdraws an open challenge or seek."""
    _close(challenge_id, condition=Q(challenger=by), status=Challenge.Status.CANCELLED)
