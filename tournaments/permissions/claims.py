"""Which players' claims an organiser decides, and the gate to one of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.http import Http404

from tournaments.models.people import PlayerClaim
from tournaments.models.tournament import Entry

if TYPE_CHECKING:
    from tournaments.permissions.roles import AnyUser


def claims_for_organiser(user: AnyUser) -> models.QuerySet[PlayerClaim]:
    """Pending claims ``user`` decides: on players entered **only** in their tournaments.

    The rule is "every entry of the player is in a tournament ``user`` owns" (and there
    is at least one). Being one of several organisers who entered a Player is not
    enough: an organiser who entered (or, before imports stopped reusing namesakes,
    silently adopted) someone else's Player must not be able to link it to an account
    that then confirms results in the other organiser's tournament. Entries added
    after a claim was made can therefore only take the decision away from an
    organiser, never hand it to a new one. Players shared between organisers, or
    entered in a tournament without an owner, are left to superusers, who see all.
    """
    if not user.is_authenticated:
        return PlayerClaim.objects.none()
    claims = PlayerClaim.objects.filter(status=PlayerClaim.Status.PENDING)
    if not user.is_superuser:
        entries = Entry.objects.filter(player=models.OuterRef("player"))
        # exclude(owner=user) keeps tournaments without an owner: they count as foreign.
        foreign = entries.exclude(tournament__owner=user)
        claims = claims.filter(models.Exists(entries)).exclude(models.Exists(foreign))
    return claims.select_related("user", "player").order_by("created_at")


def access_claim_for_organiser(user: AnyUser, claim_id: int) -> PlayerClaim:
    try:
        return claims_for_organiser(user).get(pk=claim_id)
    except PlayerClaim.DoesNotExist as exc:
        raise Http404("No such pending claim for you") from exc
