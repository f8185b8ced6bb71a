"""Challenges and seeks create casual battles through games.battles (database tests)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models.battle import Battle
from play import challenges
from play.challenges import ChallengeError
from play.models import Challenge
from play.tasks import expire_offers
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
    battle = challenges.accept(c.pk, by=bob, now=timezone.now())
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
    battle = challenges.accept(c.pk, by=bob, now=timezone.now(), coin=lambda: coin)
    assert (battle.first_user == alice) is challenger_first
    assert battle.game == "thud" and battle.timing == "quickfire"


@pytest.mark.parametrize("game", ["thud", "cavalli"])
@pytest.mark.parametrize(("move_limit", "max_plies"), [(24, 48), (30, 60)])
def test_an_accepted_quickfire_challenge_ends_after_its_moves_per_side(game, move_limit, max_plies):
    alice, bob = UserFactory(), UserFactory()
    c = challenge(alice, bob, game=game, timing="quickfire", move_limit=move_limit)
    assert Challenge.objects.get(pk=c.pk).move_limit == move_limit
    battle = challenges.accept(c.pk, by=bob, now=timezone.now())
    assert Battle.objects.get(pk=battle.pk).max_plies == max_plies


def test_a_quickfire_challenge_has_30_moves_per_side_unless_told_otherwise():
    alice, bob = UserFactory(), UserFactory()
    fields = {"game": "thud", "timing": "quickfire", "first": "random", "now": timezone.now()}
    c = challenges.create_challenge(by=alice, opponent=bob, **fields)
    assert challenges.accept(c.pk, by=bob, now=timezone.now()).max_plies == 60


def test_correspondence_has_no_move_limit_whatever_the_challenge_holds():
    alice, bob = UserFactory(), UserFactory()
    c = challenge(alice, bob, timing="correspondence", move_limit=24)
    assert challenges.accept(c.pk, by=bob, now=timezone.now()).max_plies is None


def test_anyone_but_the_seeker_may_accept_a_seek_and_becomes_the_opponent():
    alice, bob = UserFactory(), UserFactory()
    seek = challenge(alice)
    with pytest.raises(ChallengeError):
        challenges.accept(seek.pk, by=alice, now=timezone.now())
    battle = challenges.accept(seek.pk, by=bob, now=timezone.now())
    seek.refresh_from_db()
    assert seek.opponent == bob and {battle.first_user, battle.second_user} == {alice, bob}


def test_a_challenge_is_accepted_once_and_only_by_the_challenged_user():
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    c = challenge(alice, bob)
    with pytest.raises(ChallengeError):
        challenges.accept(c.pk, by=carol, now=timezone.now())
    challenges.accept(c.pk, by=bob, now=timezone.now())
    with pytest.raises(ChallengeError):
        challenges.accept(c.pk, by=bob, now=timezone.now())
    assert Battle.objects.count() == 1


def test_declined_or_withdrawn_challenges_cannot_be_accepted():
    alice, bob = UserFactory(), UserFactory()
    c1 = challenge(alice, bob)
    with pytest.raises(ChallengeError):
        challenges.decline(c1.pk, by=alice, now=timezone.now())  # only the challenged user declines
    challenges.decline(c1.pk, by=bob, now=timezone.now())
    c2 = challenge(alice, bob)  # one open challenge to bob at a time
    with pytest.raises(ChallengeError):
        challenges.cancel(c2.pk, by=bob, now=timezone.now())  # only the challenger withdraws
    challenges.cancel(c2.pk, by=alice, now=timezone.now())
    for c in (c1, c2):
        with pytest.raises(ChallengeError):
            challenges.accept(c.pk, by=bob, now=timezone.now())
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
        {"move_limit": 25},
        {"move_limit": 0},
        {"move_limit": None},
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


@pytest.mark.parametrize(
    ("timing", "lifetime"),
    [("quickfire", timedelta(minutes=15)), ("correspondence", timedelta(days=7))],
)
def test_an_offer_expires_15_minutes_or_7_days_after_it_is_made(timing, lifetime):
    alice, bob = UserFactory(), UserFactory()
    made = timezone.now()
    c = challenge(alice, bob, timing=timing, now=made)
    assert (c.created_at, c.expires_at) == (made, made + lifetime)
    almost = made + lifetime - timedelta(seconds=1)
    assert list(Challenge.objects.live(almost)) == [c]
    assert not Challenge.objects.live(made + lifetime).exists()


def test_a_year_old_quickfire_seek_cannot_be_accepted():
    alice, bob = UserFactory(), UserFactory()
    now = timezone.now()
    seek = challenge(alice, timing="quickfire", now=now - timedelta(days=365))
    with pytest.raises(ChallengeError, match="This challenge has expired."):
        challenges.accept(seek.pk, by=bob, now=now)
    assert not Battle.objects.exists()
    fresh = challenge(alice, timing="quickfire", now=now - timedelta(minutes=14, seconds=59))
    assert challenges.accept(fresh.pk, by=bob, now=now).timing == "quickfire"


def test_an_expired_challenge_can_be_neither_declined_nor_withdrawn():
    alice, bob = UserFactory(), UserFactory()
    now = timezone.now()
    c = challenge(alice, bob, now=now - timedelta(days=8))
    with pytest.raises(ChallengeError, match="expired"):
        challenges.decline(c.pk, by=bob, now=now)
    with pytest.raises(ChallengeError, match="expired"):
        challenges.cancel(c.pk, by=alice, now=now)
    c.refresh_from_db()
    assert c.status == Challenge.Status.OPEN  # until the beat writes "expired"


def test_the_beat_marks_only_offers_past_their_time_expired():
    alice, bob = UserFactory(), UserFactory()
    now = timezone.now()
    old = challenge(alice, bob, timing="quickfire", now=now - timedelta(minutes=16))
    young = challenge(alice, timing="quickfire", now=now - timedelta(minutes=14))
    taken = challenge(bob, timing="quickfire", now=now - timedelta(minutes=14))
    challenges.accept(taken.pk, by=alice, now=now)
    assert expire_offers() == 1
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {old.pk: "expired", young.pk: "open", taken.pk: "accepted"}
    with pytest.raises(ChallengeError, match="This challenge has expired."):
        challenges.accept(old.pk, by=bob, now=now)  # marked or not, the same answer


def test_the_expiry_beat_runs_on_the_default_queue():
    from thud_site import settings as configured

    entry = configured.CELERY_BEAT_SCHEDULE["play-expire-offers"]
    assert entry["task"] == expire_offers.name and entry["schedule"] <= 60
    assert entry["options"]["queue"] == configured.CELERY_TASK_DEFAULT_QUEUE
    assert configured.CELERY_TASK_DEFAULT_QUEUE != configured.THUD_CLOCK_QUEUE
