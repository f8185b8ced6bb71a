"""What a user's pages list: the matches they play, the tournaments they organise or
referee (the same rules as ``roles.can_organise`` and ``roles.can_referee``, as queries).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models

from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament

if TYPE_CHECKING:
    from tournaments.permissions.roles import AnyUser


def matches_of_player(user: AnyUser) -> models.QuerySet[Match]:
    """The published matches of the Player linked to ``user`` (empty for anyone else)."""
    if not user.is_authenticated:
        return Match.objects.none()
    return (
        Match.objects.counted()
        .filter(models.Q(player_a__player__user=user) | models.Q(player_b__player__user=user))
        .select_related("round__tournament", "player_a__player", "player_b__player")
        .order_by("-round__tournament__start_date", "round__tournament__name", "round__number")
    )


def tournaments_organised_by(user: AnyUser) -> models.QuerySet[Tournament]:
    """Tournaments ``user`` may organise (``can_organise``), newest first."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    qs = Tournament.objects.all()
    if not user.is_superuser:
        qs = qs.filter(models.Q(owner=user) | models.Q(co_organisers=user)).distinct()
    return qs.order_by("-start_date", "name")


def tournaments_refereed_by(user: AnyUser) -> models.QuerySet[Tournament]:
    """Tournaments ``user`` referees by appointment or as their organiser (``can_referee``)."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.order_by("-start_date", "name")
    return (
        Tournament.objects.filter(
            models.Q(owner=user) | models.Q(co_organisers=user) | models.Q(referees=user)
        )
        .distinct()
        .order_by("-start_date", "name")
    )
