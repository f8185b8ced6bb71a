"""/play/ under pressure, over HTTP: stale offers, floods of challenges, 10,000 seeks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Battle
from play import challenges
from play.models import Challenge
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def offer(by, opponent=None, *, age=timedelta(0), timing="quickfire") -> Challenge:
    return challenges.create_challenge(
        by=by, opponent=opponent, game="thud", timing=timing, now=timezone.now() - age
    )


def test_an_expired_seek_is_not_listed_and_accepting_it_says_it_has_expired(client):
    alice, bob = UserFactory(username="alice"), UserFactory()
    stale = offer(alice, age=timedelta(minutes=16))
    client.force_login(bob)
    page = client.get(reverse("play:start")).content.decode()
    assert f'data-challenge="{stale.pk}"' not in page
    r = client.post(reverse("play:answer", args=[stale.pk, "accept"]))
    assert r.status_code == 409 and "This challenge has expired." in r.content.decode()
    assert not Battle.objects.exists()


def test_a_live_offer_says_when_it_expires(client):
    alice, bob = UserFactory(), UserFactory()
    offer(alice, bob, age=timedelta(minutes=5))
    client.force_login(bob)
    assert "expires in 9\xa0minutes" in client.get(reverse("play:start")).content.decode()
