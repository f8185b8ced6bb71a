"""Nobody floods: at most 20 live offers per user, one live challenge per opponent, 10
challenges received per hour and 5 challenge e-mails per hour per recipient."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from outbox.models import OutboundEmail
from play import challenges
from play.challenges import MAX_LIVE_OFFERS, MAX_RECEIVED_PER_HOUR, ChallengeError
from play.models import Challenge
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def offer(by, opponent=None, *, now=None, timing="quickfire") -> Challenge:
    return challenges.create_challenge(
        by=by, opponent=opponent, game="thud", timing=timing, now=now or timezone.now()
    )


def test_a_user_has_at_most_20_live_challenges_and_seeks():
    alice = UserFactory()
    for _ in range(MAX_LIVE_OFFERS // 2):
        offer(alice)
        offer(alice, UserFactory())
    with pytest.raises(ChallengeError, match="You already have 20 open challenges and seeks"):
        offer(alice)
    with pytest.raises(ChallengeError, match="20 open"):
        offer(alice, UserFactory())
    assert Challenge.objects.filter(challenger=alice).count() == MAX_LIVE_OFFERS


def test_answered_withdrawn_and_expired_offers_free_their_place():
    alice, bob = UserFactory(), UserFactory()
    now = timezone.now()
    stale = offer(alice, now=now - timedelta(minutes=16))
    withdrawn, taken = offer(alice, now=now), offer(alice, now=now)
    for _ in range(MAX_LIVE_OFFERS - 2):
        offer(alice, now=now)
    challenges.cancel(withdrawn.pk, by=alice, now=now)
    challenges.accept(taken.pk, by=bob, now=now)
    offer(alice, now=now)
    offer(alice, now=now)
    with pytest.raises(ChallengeError):
        offer(alice, now=now)
    assert Challenge.objects.live(now).filter(challenger=alice).count() == MAX_LIVE_OFFERS
    assert stale.pk  # made before, never counted since it expired


def test_one_live_challenge_from_one_user_to_the_same_opponent():
    alice, bob, carol = UserFactory(), UserFactory(username="bob"), UserFactory()
    now = timezone.now()
    first = offer(alice, bob, now=now)
    with pytest.raises(ChallengeError, match="You already have an open challenge to bob."):
        offer(alice, bob, now=now)
    offer(carol, bob, now=now)  # someone else may
    offer(bob, alice, now=now)  # and bob may challenge alice
    challenges.decline(first.pk, by=bob, now=now)
    offer(alice, bob, now=now)  # answered: a new one is fine
    assert Challenge.objects.filter(challenger=alice, opponent=bob).count() == 2


def test_a_user_receives_at_most_10_challenges_an_hour():
    bob = UserFactory(username="bob")
    now = timezone.now()
    offer(UserFactory(), bob, now=now - timedelta(minutes=61))  # outside the hour
    for _ in range(MAX_RECEIVED_PER_HOUR):
        declined = offer(UserFactory(), bob, now=now)
        challenges.decline(declined.pk, by=bob, now=now)  # answered ones count too
    late = UserFactory()
    with pytest.raises(ChallengeError, match="bob has received 10 challenges in the last hour"):
        offer(late, bob, now=now)
    assert not Challenge.objects.filter(challenger=late).exists()
    offer(late, bob, now=now + timedelta(minutes=61))  # an hour later


def test_beyond_5_challenge_emails_an_hour_challenges_are_made_but_not_emailed():
    bob = UserFactory(username="bob", email="bob@example.org")
    now = timezone.now()
    for _ in range(8):
        offer(UserFactory(), bob, now=now)
    assert Challenge.objects.filter(opponent=bob).count() == 8
    assert OutboundEmail.objects.filter(recipient=bob, kind="challenge").count() == 5
