"""Ended casual matches and bot accounts for the engine league's tests (``play.league``)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from accounts.models import UserProfile
from games.battles.starting import create_casual_battle
from play.models import CasualMatch
from tests.factories import UserFactory


def bot(**fields):
    """A bot account (its profile row flagged, as ``play.bots.become_bot`` leaves it)."""
    user = UserFactory(**fields)
    UserProfile.objects.create(user=user, is_bot=True, became_bot_at=timezone.now())
    return user


def ended(
    a, b, *, ended_at: datetime | None, diff: int | None, game="thud", rated=True, status="ended"
) -> CasualMatch:
    """A casual match of ``a`` (first side in battle 1) and ``b``, written as it ends."""
    battle = create_casual_battle(
        game=game, first=a, second=b, timing="correspondence", now=timezone.now()
    )
    result = {"ended_at": ended_at, "differential_a": diff} if status == "ended" else {}
    return CasualMatch.objects.create(
        user_a=a,
        user_b=b,
        game=game,
        rated=rated,
        battle_1=battle,
        status=status,
        created_at=timezone.now(),
        **result,
    )
