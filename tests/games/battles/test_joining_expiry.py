"""Casual battles nobody started expire (``games.battles.joining.expire_unjoined``, run by
the beat with ``now`` passed in): closed with no result, once, never rated nor counted;
a join meanwhile wins; a tournament battle is left to its referee. Both games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles import joining
from games.battles.starting import create_battles, create_casual_battle
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.models.reasons import NEVER_STARTED, NO_SHOW
from games.rules.presence import UNJOINED_LIFETIME
from play import queries
from tests.factories import UserFactory, make_match

pytestmark = pytest.mark.django_db

SIDES = {"thud": ("dwarf", "troll"), "cavalli": ("white", "black")}


def waiting_battle(game: str) -> Battle:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    return create_casual_battle(
        game=game,
        first=alice,
        second=bob,
        timing="quickfire",
        await_players=True,
        now=timezone.now(),
    )


@pytest.fixture(params=["thud", "cavalli"])
def game(request):
    return request.param


def test_a_battle_nobody_joined_expires_once_with_no_result(game, client):
    b = waiting_battle(game)
    made = Battle.objects.get(pk=b.pk).updated_at
    assert joining.expire_unjoined(now=made + UNJOINED_LIFETIME - timedelta(seconds=1)) == 0
    assert Battle.objects.get(pk=b.pk).status == "pending"
    end = made + UNJOINED_LIFETIME
    assert joining.expire_unjoined(now=end) == 1
    b = Battle.objects.get(pk=b.pk)
    assert (b.status, b.finished_reason, b.winner, b.scores) == (
        "finished",
        NEVER_STARTED,
        "",
        {},
    )
    assert not b.awaits_players and b.ply == 0 and b.deadline is None
    # A second run (the next beat, a redelivered task) changes nothing.
    version = b.clock_version
    assert joining.expire_unjoined(now=end + timedelta(minutes=5)) == 0
    assert Battle.objects.get(pk=b.pk).clock_version == version
    kinds = list(ClockEvent.objects.filter(battle=b).values_list("kind", "via", "detail"))
    assert kinds == [(ClockEvent.Kind.NO_SHOW, ClockEvent.Via.SWEEP, NEVER_STARTED)]
    # Not played: not among the statistics' battles, nor waiting for anyone.
    assert not queries.finished_online().filter(pk=b.pk).exists()
    assert not queries.waiting_for_players(b.first_user).exists()
    # "Your games" and the battle page say it expired.
    client.force_login(b.first_user)
    games = client.get(reverse("play:games")).content.decode()
    assert "expired: nobody joined in time; nobody won or lost" in games
    page = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert "This battle expired: nobody joined it in time." in page
    assert "Waiting for both players" not in page


def test_a_battle_one_player_joined_expires_as_the_other_s_no_show(game):
    b = waiting_battle(game)
    first, _second = SIDES[game]
    made = Battle.objects.get(pk=b.pk).updated_at
    joined = made + timedelta(minutes=10)
    joining.join(b.pk, side=first, now=joined)
    # The lifetime runs from the last change: the join.
    assert joining.expire_unjoined(now=made + UNJOINED_LIFETIME) == 0
    assert joining.expire_unjoined(now=joined + UNJOINED_LIFETIME) == 1
    b = Battle.objects.get(pk=b.pk)
    assert (b.status, b.finished_reason, b.winner) == ("finished", NO_SHOW, "")
    assert b.first_joined_at == joined and b.second_joined_at is None


def test_a_hidden_page_does_not_keep_a_battle_alive(game):
    b = waiting_battle(game)
    first, _second = SIDES[game]
    made = Battle.objects.get(pk=b.pk).updated_at
    joining.join(b.pk, side=first, now=made + timedelta(minutes=10), visibility="hidden")
    assert Battle.objects.get(pk=b.pk).updated_at == made
    assert joining.expire_unjoined(now=made + UNJOINED_LIFETIME) == 1
    assert Battle.objects.get(pk=b.pk).finished_reason == NEVER_STARTED


def test_a_started_battle_and_a_tournament_battle_never_expire():
    started = waiting_battle("thud")
    joining.join(started.pk, side="dwarf", now=started.updated_at)
    joining.join(started.pk, side="troll", now=started.updated_at)
    (match,) = make_match()
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=started.updated_at)
    joining.open_for_players(b1.pk, side=None, now=started.updated_at)
    later = started.updated_at + UNJOINED_LIFETIME * 10
    assert joining.expire_unjoined(now=later) == 0
    assert Battle.objects.get(pk=started.pk).status == "running"
    b1 = Battle.objects.get(pk=b1.pk)
    assert (b1.status, b1.awaits_players) == ("pending", True)  # the referee's to decide


def test_the_beat_expires_unjoined_battles_every_minute(settings):
    from play.tasks import expire_unjoined

    entry = settings.CELERY_BEAT_SCHEDULE["play-expire-unjoined"]
    assert entry["task"] == expire_unjoined.name and entry["schedule"] <= 60
    b = waiting_battle("thud")
    Battle.objects.filter(pk=b.pk).update(updated_at=b.updated_at - UNJOINED_LIFETIME)
    assert expire_unjoined() == 1
    assert expire_unjoined() == 0
