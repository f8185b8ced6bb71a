"""Emails about casual play: a challenge arrived; it is your move in a correspondence game.

Both are sent after the change is committed (``transaction.on_commit`` / the
``games.signals.turn_changed`` signal, itself sent on commit), in the recipient's
profile language, only to users with an address who kept ``email_notifications`` on.
A ``Notice`` row (unique per battle, ply and user) is written before a turn email is
sent, so a repeated signal for the same move never sends a second email.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import UserProfile
from games.models import Battle

log = logging.getLogger(__name__)


def wants_email(user) -> bool:
    if not user.email:
        return False
    profile = UserProfile.objects.filter(user=user).only("email_notifications").first()
    return profile is None or profile.email_notifications


def _language(user) -> str:
    profile = UserProfile.objects.filter(user=user).only("language").first()
    return (profile and profile.language) or settings.LANGUAGE_CODE


def _send(user, subject: str, body: str) -> None:
    try:
        send_mail(subject, body, None, [user.email])
    except Exception:  # a mail outage must not break play
        log.warning("could not email %s", user.pk, exc_info=True)


def challenge_received(challenge_id: int) -> None:
    from .models import Challenge

    challenge = Challenge.objects.select_related("challenger", "opponent").get(pk=challenge_id)
    user = challenge.opponent
    if user is None or not wants_email(user):
        return
    with translation.override(_language(user)):
        subject = _("%(user)s challenges you to %(game)s") % {
            "user": challenge.challenger.get_username(),
            "game": challenge.get_game_display(),
        }
        body = _("Accept or decline the challenge here: %(url)s") % {
            "url": settings.SITE_URL + reverse("play:start")
        }
        _send(user, subject, body)


def on_turn_changed(sender, *, battle_id: int, status: str, side_to_move: str, **_kw) -> None:
    """Mail the player to move in a running casual correspondence battle, once per ply."""
    if status != Battle.Status.RUNNING:
        return
    # Sent after every clock write of every battle: no ordering, whose joins through the
    # match to the tournament cost a tournament battle's move 4 ms of query planning.
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
    from .models import Notice

    try:
        with transaction.atomic():
            Notice.objects.create(battle=battle, ply=battle.ply, user=user)
    except IntegrityError:
        return  # already mailed about this move
    with translation.override(_language(user)):
        subject = _("Your move against %(user)s (%(game)s)") % {
            "user": opponent.get_username(),
            "game": _(battle.rules.name),  # noqa: INT001
        }
        body = _("It is your move. Play it here: %(url)s") % {
            "url": settings.SITE_URL + reverse("games:battle", args=[battle.pk])
        }
        _send(user, subject, body)
