"""Emails about casual play: a challenge arrived; it is your move in a correspondence game.

A challenge's e-mail says who plays which side and the clock, as ``play.wording`` words
it for the challenged user.

Both are queued in the outbox (``outbox.emails.queue_email``) and sent by a worker after
the commit, never by the request: a challenge's e-mail in the challenge's own transaction,
a turn's when the ``games.events.signals.turn_changed`` signal (itself sent on commit) arrives.
They are written in the recipient's profile language, only to users with an address who
kept ``email_notifications`` on. A ``Notice`` row (unique per battle, ply and user) is
written in the transaction that queues a turn email, so a repeated signal for the same
move never queues a second email.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import UserProfile
from games.models.battle import Battle
from outbox.emails import Limit, queue_email

from . import wording
from .models import Notice

CHALLENGE = "challenge"
TURN = "turn"
#: Challenge e-mails one user receives at most per hour; more challenges are still made
#: (and listed on /play/), only not e-mailed.
CHALLENGE_EMAILS = Limit(count=5, window=timedelta(hours=1))


def wants_email(user) -> bool:
    if not user.email:
        return False
    profile = UserProfile.objects.filter(user=user).only("email_notifications").first()
    return profile is None or profile.email_notifications


def _language(user) -> str:
    profile = UserProfile.objects.filter(user=user).only("language").first()
    return (profile and profile.language) or settings.LANGUAGE_CODE


def challenge_received(challenge, *, now: datetime) -> None:
    """Queue the challenged user's e-mail (call inside the challenge's transaction)."""
    user = challenge.opponent
    if user is None or not wants_email(user):
        return
    with translation.override(_language(user)):
        subject = _("%(user)s challenges you to %(game)s") % {
            "user": challenge.challenger.get_username(),
            "game": challenge.get_game_display(),
        }
        # The same line the challenge has on /play/ for its recipient: sides, clock.
        body = "{}\n\n{}".format(
            wording.words_for(challenge, reader=user),
            _("Accept or decline the challenge here: %(url)s")
            % {"url": settings.SITE_URL + reverse("play:start")},
        )
    queue_email(
        kind=CHALLENGE,
        to=user.email,
        recipient=user,
        subject=subject,
        body=body,
        now=now,
        limit=CHALLENGE_EMAILS,
    )


def on_turn_changed(
    sender: object,
    *,
    battle_id: int,
    status: str,
    side_to_move: str,
    casual: bool,
    timing: str,
    now: datetime,
    **_kw: object,
) -> None:
    """Mail the player to move in a running casual correspondence battle, once per ply
    (``now``: the time of the clock write the signal reports)."""
    # Sent after every clock write of every battle: what the battle is comes with the
    # signal, so a tournament's or a quickfire battle's press costs no query here.
    if status != Battle.Status.RUNNING or not casual or timing != Battle.Timing.CORRESPONDENCE:
        return
    # No ordering, whose joins through the match to the tournament cost 4 ms of planning.
    battle = (
        Battle.objects.filter(pk=battle_id, match__isnull=True, timing=Battle.Timing.CORRESPONDENCE)
        .select_related("first_user", "second_user")
        .order_by()
        .first()
    )
    if battle is None or battle.status != Battle.Status.RUNNING:
        return
    user = battle.user_for(battle.side_to_move)
    opponent = battle.user_for(
        battle.rules.sides[1].key
        if battle.side_to_move == battle.rules.sides[0].key
        else battle.rules.sides[0].key
    )
    if user is None or not wants_email(user):
        return
    with translation.override(_language(user)):
        subject = _("Your move against %(user)s (%(game)s)") % {
            "user": opponent.get_username(),
            "game": _(battle.rules.name),  # noqa: INT001
        }
        body = _("It is your move. Play it here: %(url)s") % {
            "url": settings.SITE_URL + reverse("games:battle", args=[battle.pk])
        }
    try:
        with transaction.atomic():
            Notice.objects.create(battle=battle, ply=battle.ply, user=user)
            queue_email(
                kind=TURN, to=user.email, recipient=user, subject=subject, body=body, now=now
            )
    except IntegrityError:
        return  # already mailed about this move
