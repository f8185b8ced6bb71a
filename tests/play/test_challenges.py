"""Challenges and seeks create casual battles through games.battles (database tests)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Battle
from play import challenges
from play.challenges import ChallengeError
from play.models import Challenge
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def challenge(by, opponent=None, **kw) -> Challenge:
    fields = {
        "game": "cavalli",
        "timing": "correspondence",
        "days": 3,
        "first": "challenger",
        "now": timezone.now(),
    }
    return challenges.create_challenge(by=by, opponent=opponent, **(fields | kw))


def test_accepting_a_challenge_starts_a_correspondence_battle_with_the_chosen_first_player():
    alice, bob = UserFactory(), UserFactory()
    c = challenge(alice, bob, days=5)
    battle = challenges.accept(c.pk, by=bob)
    c.refresh_from_db()
    assert c.status == Challenge.Status.ACCEPTED and c.battle == battle
    assert (battle.first_user, battle.second_user) == (alice, bob)
    assert battle.game == "cavalli" and battle.status == Battle.Status.RUNNING
    assert battle.timing == "correspondence" and battle.think_ms == 5 * 86_400_000


@pytest.mark.parametrize(
    ("first", "coin", "challenger_first"),
    [("opponent", True, False), ("random", True, True), ("random", False, False)],
)
def test_who_moves_first_follows_the_choice_or_the_coin(first, coin, challenger_first):
    alice, bob = UserFactory(), UserFactory()
    c = challenge(alice, bob, first=first, game="thud", timing="quickfire")
    battle = challenges.accept(c.pk, by=bob, coin=lambda: coin)
    assert (battle.first_user == alice) is challenger_first
    assert battle.game == "thud" and battle.timing == "quickfire"


def test_anyone_but_the_seeker_may_accept_a_seek_and_becomes_the_opponent():
    alice, bob = UserFactory(), UserFactory()
    seek = challenge(alice)
    with pytest.raises(ChallengeError):
        challenges.accept(seek.pk, by=alice)
    battle = challenges.accept(seek.pk, by=bob)
    seek.refresh_from_db()
    assert seek.opponent == bob and {battle.first_user, battle.second_user} == {alice, bob}


def test_a_challenge_is_accepted_once_and_only_by_the_challenged_user():
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    c = challenge(alice, bob)
    with pytest.raises(ChallengeError):
        challenges.accept(c.pk, by=carol)
    challenges.accept(c.pk, by=bob)
    with pytest.raises(ChallengeError):
        challenges.accept(c.pk, by=bob)
    assert Battle.objects.count() == 1


def test_declined_or_withdrawn_challenges_cannot_be_accepted():
    alice, bob = UserFactory(), UserFactory()
    c1, c2 = challenge(alice, bob), challenge(alice, bob)
    with pytest.raises(ChallengeError):
        challenges.decline(c1.pk, by=alice)  # only the challenged user declines
    challenges.decline(c1.pk, by=bob)
    with pytest.raises(ChallengeError):
        challenges.cancel(c2.pk, by=bob)  # only the challenger withdraws
    challenges.cancel(c2.pk, by=alice)
    for c in (c1, c2):
        with pytest.raises(ChallengeError):
            challenges.accept(c.pk, by=bob)
    assert Battle.objects.count() == 0
    assert set(Challenge.objects.values_list("status", flat=True)) == {"declined", "cancelled"}


@pytest.mark.parametrize(
    "bad",
    [
        {"game": "chess"},
        {"timing": "blitz"},
        {"days": 0},
        {"days": 15},
        {"first": "whoever"},
    ],
)
def test_bad_challenges_are_refused_and_nothing_is_stored(bad):
    alice, bob = UserFactory(), UserFactory()
    with pytest.raises(ChallengeError):
        challenge(alice, bob, **bad)
    assert not Challenge.objects.exists()


def test_nobody_challenges_themself():
    alice = UserFactory()
    with pytest.raises(ChallengeError):
        challenge(alice, alice)
    assert not Challenge.objects.exists()
