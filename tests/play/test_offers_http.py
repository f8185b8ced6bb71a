"""/play/ under pressure, over HTTP: stale offers, floods of challenges, 10,000 seeks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models.battle import Battle
from outbox.models import OutboundEmail
from play import challenges
from play.challenges import MAX_LIVE_OFFERS
from play.models import Challenge
from play.paging import PAGE_SIZE
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


def post_offer(client, username=""):
    data = {"username": username, "game": "thud", "timing": "quickfire", "first": "random"}
    return client.post(reverse("play:start"), data | {"days": 3})


def test_a_flood_of_challenges_to_one_user_makes_one_challenge_and_one_email(client):
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob", email="bob@example.org")
    client.force_login(alice)
    answers = [post_offer(client, "bob") for _ in range(30)]
    assert answers[0].status_code == 302
    assert {r.status_code for r in answers[1:]} == {400}
    assert "You already have an open challenge to bob." in answers[-1].content.decode()
    assert Challenge.objects.filter(opponent=bob).count() == 1
    assert OutboundEmail.objects.filter(recipient=bob).count() == 1


def test_the_21st_open_seek_is_refused_with_a_message_naming_the_limit(client):
    client.force_login(UserFactory())
    assert {post_offer(client).status_code for _ in range(MAX_LIVE_OFFERS)} == {302}
    r = post_offer(client)
    assert r.status_code == 400
    assert "You already have 20 open challenges and seeks" in r.content.decode()
    assert Challenge.objects.count() == MAX_LIVE_OFFERS


def offers_by_others(n: int, *, now, opponent=None) -> None:
    """``n`` live offers, each by its own user: written directly, as the limits that
    would refuse them are not what is tested here."""
    times = {"created_at": now, "expires_at": now + timedelta(minutes=15)}
    Challenge.objects.bulk_create(
        Challenge(challenger=u, opponent=opponent, game="thud", timing="quickfire", **times)
        for u in UserFactory.create_batch(n)
    )


def start_page_queries(client, **params) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        r = client.get(reverse("play:start"), params)
    assert r.status_code == 200
    return len(queries), r.content.decode()


def test_the_start_page_shows_20_seeks_a_page_in_the_same_number_of_queries(client):
    viewer = UserFactory()
    now = timezone.now()
    offer(UserFactory(), viewer)  # something in every list
    offer(viewer)
    client.force_login(viewer)
    offers_by_others(2, now=now)
    start_page_queries(client)  # the first request of a session may write to it
    few, _ = start_page_queries(client)
    offers_by_others(43, now=now)
    many, page = start_page_queries(client)
    assert many == few
    assert page.count('<li class="challenge"') == 2 + PAGE_SIZE
    assert 'href="?page=2#seeks" rel="next"' in page and "Page 1 of 3" in page
    _, last = start_page_queries(client, page=3)
    assert last.count('<li class="challenge"') == 2 + 5
    assert 'href="?page=2#seeks" rel="prev"' in last and 'rel="next"' not in last


@pytest.mark.parametrize("number", ["0", "-1", "abc", "99999", "1" * 400, "2\x00"])
def test_any_page_number_shows_a_page(client, number):
    client.force_login(UserFactory())
    offers_by_others(25, now=timezone.now())
    assert client.get(reverse("play:start"), {"page": number}).status_code == 200


def test_turning_one_lists_page_keeps_the_others(client):
    viewer = UserFactory()
    now = timezone.now()
    offers_by_others(PAGE_SIZE + 1, now=now, opponent=viewer)
    offers_by_others(PAGE_SIZE + 1, now=now)
    client.force_login(viewer)
    page = client.get(reverse("play:start"), {"received": 2}).content.decode()
    assert 'href="?received=2&amp;page=2#seeks"' in page
    assert 'href="?received=1#received" rel="prev"' in page
    assert 'aria-labelledby="received-heading"' in page
