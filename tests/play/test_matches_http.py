"""Rated casual matches over HTTP: the challenge form's option, bad input refused, and the
pages that say "Rated match, battle 1 of 2" and show the match's result."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from play import challenges
from play.models import CasualMatch, Challenge
from tests.factories import UserFactory
from tests.play.test_matches import play_to_end, rated_match

pytestmark = pytest.mark.django_db

GOOD = {"username": "bob", "game": "thud", "timing": "quickfire", "days": 3, "first": "random"}


def test_the_challenge_form_offers_a_rated_match_with_help(client):
    client.force_login(UserFactory())
    html = client.get(reverse("play:start")).content.decode()
    assert 'type="checkbox" name="rated_match"' in html
    assert "Rated match (two battles, sides swapped)" in html
    assert "the second with the sides swapped" in html


@pytest.mark.parametrize(("game", "timing"), [("thud", "quickfire"), ("cavalli", "correspondence")])
def test_a_rated_match_challenge_for_either_game_is_stored_and_said(client, game, timing):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    client.force_login(alice)
    r = client.post(
        reverse("play:start"), GOOD | {"game": game, "timing": timing, "rated_match": "on"}
    )
    assert r.status_code == 302
    c = Challenge.objects.get()
    assert (c.game, c.timing, c.rated_match) == (game, timing, True)
    client.force_login(bob)
    assert "rated match: two battles, sides swapped" in client.get(reverse("play:start")).text
    r = client.post(reverse("play:answer", args=[c.pk, "accept"]))
    m = CasualMatch.objects.get()
    assert r["Location"] == reverse("games:battle", args=[m.battle_1_id])
    assert m.game == game and {m.user_a, m.user_b} == {alice, bob}


def test_without_the_option_a_challenge_is_a_single_battle(client):
    UserFactory(username="bob")
    client.force_login(UserFactory())
    assert client.post(reverse("play:start"), GOOD).status_code == 302
    assert Challenge.objects.get().rated_match is False


@pytest.mark.parametrize(
    "bad", [{"game": "chess"}, {"timing": "blitz"}, {"days": 0}, {"username": "nobody"}]
)
def test_a_bad_rated_match_challenge_is_a_400_and_stores_nothing(client, bad):
    UserFactory(username="bob")
    client.force_login(UserFactory())
    r = client.post(reverse("play:start"), GOOD | {"rated_match": "on"} | bad)
    assert r.status_code == 400
    assert 'class="errorlist' in r.text
    assert not Challenge.objects.exists() and not CasualMatch.objects.exists()


def test_your_games_and_the_battle_pages_say_which_battle_of_the_match(client):
    t0 = timezone.now()
    m = rated_match(now=t0)
    client.force_login(m.user_a)
    games = client.get(reverse("play:games")).text
    assert "Rated match, battle 1 of 2" in games
    assert "Rated match, battle 1 of 2" in client.get(reverse("play:start")).text  # waiting
    page = client.get(reverse("games:battle", args=[m.battle_1_id])).text
    assert "Rated match, battle 1 of 2" in page and 'id="match-result"' not in page
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    games = client.get(reverse("play:games")).text
    assert "Rated match, battle 1 of 2" in games and "Rated match, battle 2 of 2" in games
    page = client.get(reverse("games:battle", args=[m.battle_1_id])).text
    assert f'href="{reverse("games:battle", args=[m.battle_2_id])}">Go to battle 2' in page
    page = client.get(reverse("games:battle", args=[m.battle_2_id])).text
    assert "Rated match, battle 2 of 2" in page and 'id="match-result"' not in page


def test_the_finished_battle_2_page_shows_the_match_result(client):
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    play_to_end(m.battle_2_id, now=t0, dwarves_lost=1)
    client.force_login(m.user_b)
    page = client.get(reverse("games:battle", args=[m.battle_2_id])).text
    # Alice keeps 32 dwarfs and 8 trolls (64), Bob 8 trolls and 31 dwarfs (63).
    assert "Match result: alice wins the match on total score 64–63." in page
    fragment = client.get(
        reverse("games:battle", args=[m.battle_2_id]), HTTP_HX_REQUEST="true"
    ).text
    assert "alice wins the match" in fragment  # the live board panel carries it


def test_a_drawn_match_says_so():
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    play_to_end(m.battle_2_id, now=t0)
    m.refresh_from_db()
    assert m.differential_a == 0 and m.winner is None


def test_a_single_casual_battle_page_says_nothing_of_a_match(client):
    alice, bob = UserFactory(), UserFactory()
    c = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=timezone.now()
    )
    battle = challenges.accept(c.pk, by=bob, now=timezone.now())
    client.force_login(alice)
    assert "Rated match" not in client.get(reverse("games:battle", args=[battle.pk])).text
    assert "Rated match" not in client.get(reverse("play:games")).text


def test_your_games_names_the_matches_in_one_query_however_many(client):
    t0 = timezone.now()
    m = rated_match(now=t0)
    client.force_login(m.user_a)
    client.get(reverse("play:games"))  # the first request also saves the session
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("play:games"))
    # Three more, against other opponents (one pair has only so many rated per period).
    for _ in range(3):
        opponent = UserFactory()
        c = challenges.create_challenge(
            by=m.user_a,
            opponent=opponent,
            game="thud",
            timing="quickfire",
            rated_match=True,
            now=t0,
        )
        challenges.accept(c.pk, by=opponent, now=t0)
    with CaptureQueriesContext(connection) as four:
        html = client.get(reverse("play:games")).text
    assert html.count("Rated match, battle 1 of 2") == 4
    assert len(four) == len(one)
