"""The bot account section of the settings page (``play.views.become_bot``) and the BOT
mark on the casual pages (challenge lists, your games, a match's box, the battle page)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import UserProfile
from games.battles.starting import create_casual_battle
from play import bots, challenges
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MARK = '<abbr class="bot-mark" title="A program plays this account">BOT</abbr>'


def is_bot_in_db(user) -> bool:
    return UserProfile.objects.filter(user=user, is_bot=True).exists()


def test_the_settings_page_explains_and_its_button_asks_first(client):
    client.force_login(UserFactory())
    page = client.get(reverse("play:settings")).content.decode()
    assert 'id="bot-account"' in page and "“bot” scope" in page
    form = re.search(r'<form method="post" action="/play/settings/bot/">.*?</form>', page, re.S)
    assert form is not None
    button = re.search(r'<button[^>]*data-confirm="([^"]+)"', form.group(0))
    assert button is not None and "bot account for good" in button.group(1)


def test_the_confirmed_post_makes_a_bot_account_and_the_page_says_so(client):
    user = UserFactory()
    client.force_login(user)
    r = client.post(reverse("play:become_bot"), {"confirm": "1"}, follow=True)
    assert r.redirect_chain == [(reverse("play:settings"), 302)]
    page = r.content.decode()
    assert "This account is a bot account now." in page  # the message
    assert "This account is a bot account." in page
    assert 'action="/play/settings/bot/"' not in page  # no button any more
    assert is_bot_in_db(user)


def test_a_post_without_the_confirmation_asks_on_a_page_and_changes_nothing(client):
    user = UserFactory()
    client.force_login(user)
    r = client.post(reverse("play:become_bot"))
    assert r.status_code == 400
    assert 'name="confirm" value="1"' in r.content.decode()
    assert not is_bot_in_db(user)


def test_get_changes_nothing(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(reverse("play:become_bot")).status_code == 405
    assert client.get(reverse("play:settings")).status_code == 200
    assert not is_bot_in_db(user)


def test_anonymous_visitors_are_sent_to_log_in(client):
    for name in ("play:settings", "play:become_bot"):
        r = client.post(reverse(name), {"confirm": "1"})
        assert r.status_code == 302 and reverse("login") in r["Location"]


def test_a_refusal_shows_the_settings_page_with_its_reason_and_changes_nothing(client):
    user, other = UserFactory(), UserFactory()
    create_casual_battle(
        game="cavalli", first=user, second=other, timing="correspondence", now=timezone.now()
    )
    client.force_login(user)
    r = client.post(reverse("play:become_bot"), {"confirm": "1"})
    assert r.status_code == 409
    page = r.content.decode()
    assert 'id="bot-refusal"' in page and "has played already" in page
    assert not is_bot_in_db(user)


def test_a_second_post_is_refused(client):
    user = UserFactory()
    bots.become_bot(user, now=timezone.now())
    client.force_login(user)
    r = client.post(reverse("play:become_bot"), {"confirm": "1"})
    assert r.status_code == 409 and "bot account already" in r.content.decode()


def make_bot(username: str):
    user = UserFactory(username=username)
    bots.become_bot(user, now=timezone.now())
    return user


def test_a_challenge_from_a_bot_shows_its_mark_and_a_persons_does_not(client):
    robot, ann, me = make_bot("robo"), UserFactory(username="ann"), UserFactory()
    now = timezone.now()
    for by in (robot, ann):
        challenges.create_challenge(by=by, opponent=me, game="thud", timing="quickfire", now=now)
    client.force_login(me)
    page = client.get(reverse("play:start")).content.decode()
    assert f"robo {MARK} challenges you" in page
    assert "ann challenges you" in page
    assert page.count(MARK) == 1


def test_your_games_and_the_battle_page_mark_the_bots_seat(client):
    robot, me = make_bot("robo"), UserFactory(username="me")
    battle = create_casual_battle(
        game="cavalli", first=me, second=robot, timing="correspondence", now=timezone.now()
    )
    client.force_login(me)
    games = client.get(reverse("play:games")).content.decode()
    assert f"me against robo {MARK}" in games and games.count(MARK) == 1
    page = client.get(reverse("games:battle", args=[battle.pk])).content.decode()
    h1 = re.search(r"<h1>.*?</h1>", page, re.S)
    assert h1 is not None and f"robo {MARK} (" in h1.group(0) and h1.group(0).count(MARK) == 1


def test_a_rated_challenge_of_a_bot_to_a_person_says_why_it_is_not_rated(client):
    robot, me = make_bot("robo"), UserFactory(username="me")
    now = timezone.now()
    c = challenges.create_challenge(
        by=robot, opponent=me, game="thud", timing="quickfire", rated_match=True, now=now
    )
    battle = challenges.accept(c.pk, by=me, now=now)
    client.force_login(me)
    page = client.get(reverse("games:battle", args=[battle.pk])).content.decode()
    assert "not rated: a bot account plays a person" in page
    assert 'id="match-unrated"' in page and MARK in page


def test_the_marks_cost_no_query_per_name(client):
    me = UserFactory()
    now = timezone.now()
    client.force_login(me)

    def challenged_by_a_new_bot(n: int) -> None:
        challenges.create_challenge(
            by=make_bot(f"bot{n}"), opponent=me, game="thud", timing="quickfire", now=now
        )

    challenged_by_a_new_bot(0)
    client.get(reverse("play:start"))  # the first request also saves the session
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("play:start"))
    for n in range(1, 4):
        challenged_by_a_new_bot(n)
    with CaptureQueriesContext(connection) as four:
        page = client.get(reverse("play:start")).content.decode()
    assert page.count(MARK) == 4
    assert len(four) == len(one)
