"""Parallel requests (PostgreSQL row locks): two users accepting the same seek at once make
one game; parallel offers cannot slip past the limits together."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from games.models.battle import Battle
from outbox.models import OutboundEmail
from play import challenges, notify
from play.challenges import ChallengeError
from play.models import Challenge
from tests.factories import UserFactory
from tests.tournaments.results.test_workflow_concurrency import race

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


def test_parallel_offers_by_one_user_stop_at_the_limit():
    alice = UserFactory()
    now = timezone.now()
    extra = 5
    outcomes = race(
        *[
            lambda: challenges.create_challenge(by=alice, game="thud", timing="quickfire", now=now)
            for _ in range(challenges.MAX_LIVE_OFFERS + extra)
        ]
    )
    assert sum(isinstance(o, Challenge) for o in outcomes) == challenges.MAX_LIVE_OFFERS
    assert sum(isinstance(o, ChallengeError) for o in outcomes) == extra, outcomes
    assert Challenge.objects.count() == challenges.MAX_LIVE_OFFERS


def test_parallel_challenges_to_one_user_stop_at_the_hourly_limit():
    bob = UserFactory(email="bob@example.org")
    senders = [UserFactory() for _ in range(challenges.MAX_RECEIVED_PER_HOUR + 4)]
    now = timezone.now()
    outcomes = race(
        *[
            lambda by=by: challenges.create_challenge(
                by=by, opponent=bob, game="thud", timing="quickfire", now=now
            )
            for by in senders
        ]
    )
    assert sum(isinstance(o, ChallengeError) for o in outcomes) == 4, outcomes
    assert Challenge.objects.filter(opponent=bob).count() == challenges.MAX_RECEIVED_PER_HOUR
    assert OutboundEmail.objects.filter(recipient=bob).count() == notify.CHALLENGE_EMAILS.count
