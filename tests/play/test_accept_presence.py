"""Accepting a challenge: the quickfire battle waits for both players, the challenger is
told at once on their channel (real Redis), and /play/ lists the waiting battle (the
fallback without JavaScript)."""

from __future__ import annotations

import json

import pytest
import redis
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.events import publish
from play import challenges
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_accepting_tells_the_challenger_and_leaves_the_clock_waiting(
    django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(publish, "_publisher", None)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    now = timezone.now()
    c = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=now
    )
    sub = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    sub.subscribe(publish.user_channel(alice.pk))
    assert sub.get_message(timeout=2)["type"] == "subscribe"
    with django_capture_on_commit_callbacks(execute=True):
        battle = challenges.accept(c.pk, by=bob, now=now)
    message = sub.get_message(timeout=2)
    sub.close()
    assert (battle.status, battle.awaits_players, battle.deadline) == ("pending", True, None)
    assert json.loads(message["data"]) == {
        "kind": "accepted",
        "battle": battle.pk,
        "url": f"/battles/{battle.pk}/",
        "from": "bob",
        "challenge": c.pk,
    }


def test_an_accepted_correspondence_challenge_starts_at_once():
    alice, bob = UserFactory(), UserFactory()
    now = timezone.now()
    c = challenges.create_challenge(by=alice, game="thud", timing="correspondence", now=now)
    assert challenges.accept(c.pk, by=bob, now=now).status == "running"


def test_the_play_page_lists_the_battle_waiting_for_both(client):
    alice, bob = UserFactory(), UserFactory()
    now = timezone.now()
    c = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=now
    )
    battle = challenges.accept(c.pk, by=bob, now=now)
    client.force_login(alice)
    html = client.get(reverse("play:start")).content.decode()
    assert 'id="waiting-battles"' in html
    assert f'href="{reverse("games:battle", args=[battle.pk])}"' in html
    assert "waiting for both players" in html
