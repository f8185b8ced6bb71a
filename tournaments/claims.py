"""Player claims: a registered user asks to be linked to a Player; an organiser decides.

Invariants: at most one pending claim per player (a database constraint); a Player is
linked to at most one user and a user to at most one Player (``Player.user`` is
one-to-one); a claim is decided once.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import Player, PlayerClaim


class ClaimError(ValueError):
    """A claim that cannot be made or decided; the message is shown to the user."""


def make_claim(*, user, player: Player) -> PlayerClaim:
    if hasattr(user, "player"):
        raise ClaimError(_("Your account is already linked to a player."))
    try:
        with transaction.atomic():
            return PlayerClaim.objects.create(user=user, player=player)
    except IntegrityError:
        raise ClaimError(_("Someone has already claimed this player.")) from None


def decide_claim(claim: PlayerClaim, *, approve: bool, by) -> PlayerClaim:
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
        claim.decided_at = timezone.now()
        claim.save(update_fields=["status", "decided_by", "decided_at"])
        return claim
