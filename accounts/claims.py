"""Player claims: a registered user asks to be linked to a Player; an organiser decides.

Invariants: at most one pending claim per player (a database constraint); a Player is
linked to at most one user and a user to at most one Player (``Player.user`` is
one-to-one); a claim is decided once.

Claims fill the organisers' queue, so an account may have at most
``PENDING_CLAIMS_MAX`` claims waiting at once (counted under a lock on the account's row,
so parallel claims cannot all see room) and make at most ``CLAIMS_PER_DAY`` claims a day
(``thud_site.limits``, counted before the claim is saved).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from thud_site import limits
from tournaments.models.people import Player, PlayerClaim

PENDING_CLAIMS_MAX = 3
CLAIMS_PER_DAY = 10
CLAIMS_WINDOW_S = 24 * 3600
CLAIMS_SCOPE = "player-claims"


class ClaimError(ValueError):
    """A claim that cannot be made or decided; the message is shown to the user."""


def make_claim(*, user, player: Player) -> PlayerClaim:
    if hasattr(user, "player"):
        raise ClaimError(_("Your account is already linked to a player."))
    try:
        with transaction.atomic():
            # The account's row lock queues its own parallel claims behind one another.
            get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)
            pending = PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING)
            if pending.count() >= PENDING_CLAIMS_MAX:
                raise ClaimError(
                    _(
                        "You have %(n)d claims waiting for an organiser's decision; "
                        "wait until one is decided before claiming another player."
                    )
                    % {"n": PENDING_CLAIMS_MAX}
                )
            if not limits.allow(
                CLAIMS_SCOPE, str(user.pk), limit=CLAIMS_PER_DAY, window_s=CLAIMS_WINDOW_S
            ):
                raise ClaimError(
                    _(
                        "Your account has reached the limit of %(n)d claims a day. Try again tomorrow."
                    )
                    % {"n": CLAIMS_PER_DAY}
                )
            return PlayerClaim.objects.create(user=user, player=player)
    except IntegrityError:
        raise ClaimError(_("Someone has already claimed this player.")) from None


def decide_claim(claim: PlayerClaim, *, approve: bool, by, now: datetime) -> PlayerClaim:
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().select_related("player").get(pk=claim.pk)
        if claim.status != PlayerClaim.Status.PENDING:
            raise ClaimError(_("This claim has already been decided."))
        if approve:
            player = Player.objects.select_for_update().get(pk=claim.player_id)
            if player.user_id is not None or Player.objects.filter(user=claim.user_id).exists():
                raise ClaimError(_("The player or the account is already linked."))
            player.user_id = claim.user_id
            player.save(update_fields=["user"])
        claim.status = PlayerClaim.Status.APPROVED if approve else PlayerClaim.Status.REJECTED
        claim.decided_by = by
        claim.decided_at = now
        claim.save(update_fields=["status", "decided_by", "decided_at"])
        return claim
