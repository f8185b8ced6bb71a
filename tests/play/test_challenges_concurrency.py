"""Two users accepting the same seek at once make one game (PostgreSQL row locks)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Battle
from play import challenges
from play.challenges import ChallengeError
from play.models import Challenge
from tests.factories import UserFactory
from tests.tournaments.test_results_concurrency import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks"),
    pytest.mark.timeout(60),
]


def test_two_users_accepting_one_seek_at_once_create_exactly_one_battle():
    seeker, bob, carol = UserFactory(), UserFactory(), UserFactory()
    seek = challenges.create_challenge(
        by=seeker,
        game="cavalli",
        timing="correspondence",
        days=2,
        first="random",
        now=timezone.now(),
    )
    outcomes = race(
        lambda: challenges.accept(seek.pk, by=bob, now=timezone.now()),
        lambda: challenges.accept(seek.pk, by=carol, now=timezone.now()),
    )
    won = [o for o in outcomes if isinstance(o, Battle)]
    lost = [o for o in outcomes if isinstance(o, ChallengeError)]
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert Battle.objects.count() == 1
    seek.refresh_from_db()
    assert seek.status == Challenge.Status.ACCEPTED and seek.battle_id == won[0].pk
    assert seek.opponent_id in {won[0].first_user_id, won[0].second_user_id}
