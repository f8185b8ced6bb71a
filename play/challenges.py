"""Challenges and seeks: create, accept (creates the battle), decline, cancel, expire.

Accepting is one conditional ``UPDATE ... WHERE status = 'open' AND expires_at > now``:
of two users accepting the same seek at once, exactly one wins and one battle is created;
the other gets a ``ChallengeError``. The battle is created in the same transaction, so a
refused battle leaves the challenge open. An offer past ``expires_at`` is refused with
"This challenge has expired." whatever its stored status says (see ``play.models``).

Limits, so that nobody can flood the site or another user (counted in the database,
under a lock on the users concerned, so parallel requests cannot slip past together):
- at most ``MAX_LIVE_OFFERS`` live challenges and seeks per challenger;
- at most one live challenge from one user to the same opponent;
- at most ``MAX_RECEIVED_PER_HOUR`` challenges made to one user in any hour (whatever
  became of them);
- and at most ``notify.CHALLENGE_EMAILS`` e-mails about them: beyond that a challenge is
  still made, only not e-mailed.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.battles import joining
from games.battles.errors import BattleError
from games.battles.starting import check_move_limit, create_casual_battle
from games.engines import registry
from games.events import publish
from games.models.battle import DEFAULT_MOVE_LIMIT, MAX_CORRESPONDENCE_DAYS, Battle

from . import notify
from .matches import start_match
from .models import OFFER_LIFETIME, Challenge

MAX_LIVE_OFFERS = 20
MAX_RECEIVED_PER_HOUR = 10
#: The notice a challenger gets when their challenge or seek is accepted.
ACCEPTED = "accepted"
#: The notice a challenged user gets (the pages show none: the start page lists it and an
#: e-mail may say it; a program's event stream does, ``play.views_api_v1_streams``).
CHALLENGED = "challenged"


class ChallengeError(Exception):
    """A refused action; ``message`` is shown to the user and nothing changed."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


def _refusal(challenge_id: int, *, now: datetime) -> ChallengeError:
    """Why a conditional update on an open offer found nothing to change."""
    expired = (
        Challenge.objects.filter(pk=challenge_id)
        .filter(
            Q(status=Challenge.Status.OPEN, expires_at__lte=now)
            | Q(status=Challenge.Status.EXPIRED)
        )
        .exists()
    )
    if expired:
        return ChallengeError(_("This challenge has expired."))
    return ChallengeError(_("This challenge is no longer open to you."))


def create_challenge(
    *,
    by,
    opponent=None,
    game: str,
    timing: str,
    days: int = 3,
    first: str = Challenge.First.RANDOM,
    move_limit: int = DEFAULT_MOVE_LIMIT,
    rated_match: bool = False,
    now: datetime,
) -> Challenge:
    """Challenge ``opponent`` (a user), or open a public seek when ``opponent`` is None.
    ``move_limit``: a quickfire battle's moves per side (``CASUAL_MOVE_LIMITS``; kept,
    unused, for correspondence). ``rated_match``: accepting it starts a rated casual
    match (``play.matches``)."""
    if opponent is not None and opponent.pk == by.pk:
        raise ChallengeError(_("You cannot challenge yourself."))
    if game not in dict(registry.choices()):
        raise ChallengeError(_("Unknown game."))
    if timing not in Battle.Timing.values:
        raise ChallengeError(_("Unknown timing."))
    if first not in Challenge.First.values:
        raise ChallengeError(_("Choose your side."))
    try:
        check_move_limit(move_limit)
    except BattleError as exc:
        raise ChallengeError(exc.message) from None
    if not 1 <= days <= MAX_CORRESPONDENCE_DAYS:
        raise ChallengeError(
            _("Days per move must be between 1 and %(max)d.") % {"max": MAX_CORRESPONDENCE_DAYS}
        )
    with transaction.atomic():
        _check_limits(by=by, opponent=opponent, now=now)
        challenge = Challenge.objects.create(
            challenger=by,
            opponent=opponent,
            game=game,
            timing=timing,
            days=days,
            first=first,
            move_limit=move_limit,
            rated_match=rated_match,
            created_at=now,
            expires_at=now + OFFER_LIFETIME[timing],
        )
        if opponent is not None:
            notify.challenge_received(challenge, now=now)
            told = {
                "kind": CHALLENGED,
                "challenge": challenge.pk,
                "url": reverse("play:start"),
                "from": by.get_username(),
            }
            transaction.on_commit(lambda: publish.publish_notices([(opponent.pk, told)]))
    return challenge


def _check_limits(*, by, opponent, now: datetime) -> None:
    # Lock the users' rows (in one order, so two users challenging each other cannot
    # deadlock): parallel challenges by ``by`` or to ``opponent`` now count one by one.
    users = [by.pk] if opponent is None else [by.pk, opponent.pk]
    list(get_user_model().objects.select_for_update().filter(pk__in=users).order_by("pk"))
    live = Challenge.objects.live(now)
    if live.filter(challenger=by).count() >= MAX_LIVE_OFFERS:
        raise ChallengeError(
            _(
                "You already have %(max)d open challenges and seeks, the most allowed: "
                "withdraw one or wait until one is answered or expires."
            )
            % {"max": MAX_LIVE_OFFERS}
        )
    if opponent is None:
        return
    if live.filter(challenger=by, opponent=opponent).exists():
        raise ChallengeError(
            _("You already have an open challenge to %(user)s.") % {"user": opponent.get_username()}
        )
    received = Challenge.objects.filter(opponent=opponent, created_at__gt=now - timedelta(hours=1))
    if received.count() >= MAX_RECEIVED_PER_HOUR:
        raise ChallengeError(
            _(
                "%(user)s has received %(max)d challenges in the last hour, the most allowed: "
                "try again later."
            )
            % {"user": opponent.get_username(), "max": MAX_RECEIVED_PER_HOUR}
        )


def accept(
    challenge_id: int,
    *,
    by,
    now: datetime,
    coin: Callable[[], bool] = lambda: bool(secrets.randbelow(2)),
) -> Battle:
    """Accept a challenge made to ``by`` or someone else's open seek; create the battle
    (battle 1 of a casual match for a rated-match challenge, ``play.matches``).

    A quickfire battle waits for both players before its clock runs (``games.rules.presence``);
    the challenger is told at once (a notice on their channel, after commit).

    ``coin()`` decides who moves first when the challenger chose "random" (True: the
    challenger does). A quickfire battle gets the challenge's ``move_limit``.
    """
    with transaction.atomic():
        mine = Q(opponent=by) | Q(opponent__isnull=True)
        won = (
            Challenge.objects.live(now)
            .filter(pk=challenge_id)
            .filter(mine)
            .exclude(challenger=by)
            .update(status=Challenge.Status.ACCEPTED, opponent=by)
        )
        if won != 1:
            raise _refusal(challenge_id, now=now)
        challenge = Challenge.objects.select_related("challenger").get(pk=challenge_id)
        firsts: dict[str, bool] = {
            Challenge.First.CHALLENGER: True,
            Challenge.First.OPPONENT: False,
        }
        challenger_first = firsts.get(challenge.first)
        if challenger_first is None:
            challenger_first = coin()
        first, second = (
            (challenge.challenger, by) if challenger_first else (by, challenge.challenger)
        )
        try:
            if challenge.rated_match:
                battle = start_match(
                    game=challenge.game,
                    first=first,
                    second=second,
                    timing=challenge.timing,
                    days=challenge.days,
                    move_limit=challenge.move_limit,
                    now=now,
                ).battle_1
            else:
                battle = create_casual_battle(
                    game=challenge.game,
                    first=first,
                    second=second,
                    timing=challenge.timing,
                    days=challenge.days,
                    move_limit=challenge.move_limit,
                    await_players=True,
                    now=now,
                )
        except BattleError as exc:
            transaction.set_rollback(True)
            raise ChallengeError(exc.message) from None
        Challenge.objects.filter(pk=challenge_id).update(battle=battle)
        # The challenger is told at once on whatever page they have open; their waiting
        # page (/play/) turns into the battle.
        told = joining.notice(battle, ACCEPTED, by=by.get_username()) | {"challenge": challenge_id}
        challenger = challenge.challenger_id
        transaction.on_commit(lambda: publish.publish_notices([(challenger, told)]))
    return battle


def _close(challenge_id: int, *, condition: Q, status: str, now: datetime) -> None:
    updated = (
        Challenge.objects.live(now).filter(pk=challenge_id).filter(condition).update(status=status)
    )
    if updated != 1:
        raise _refusal(challenge_id, now=now)


def decline(challenge_id: int, *, by, now: datetime) -> None:
    """The challenged user says no (a seek cannot be declined, only left open)."""
    _close(challenge_id, condition=Q(opponent=by), status=Challenge.Status.DECLINED, now=now)


def cancel(challenge_id: int, *, by, now: datetime) -> None:
    """The challenger withdraws an open challenge or seek."""
    _close(challenge_id, condition=Q(challenger=by), status=Challenge.Status.CANCELLED, now=now)


def mark_expired(*, now: datetime) -> int:
    """Write ``expired`` on every open offer past its time (one UPDATE; bookkeeping only)."""
    return Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now).update(
        status=Challenge.Status.EXPIRED
    )
