"""The casual play pages over HTTP: start a game, answer, your games, statistics, settings."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import UserProfile
from games.battles.play import accept_end, offer_end, submit_move
from games.battles.starting import create_casual_battle
from games.engines import registry
from games.models.battle import Battle
from play import challenges
from play.models import Challenge
from play.queries import your_move_count
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def casual(first, second, game="cavalli", seed=7) -> Battle:
    return create_casual_battle(
        game=game,
        first=first,
        second=second,
        timing="correspondence",
        board_seed=seed,
        now=timezone.now(),
    )


def finish(battle: Battle, *, first_moves: bool) -> Battle:
    """End ``battle`` by agreement; the first side wins if it moved first, else a draw."""
    if first_moves:
        game = battle.rules
        notation = game.legal_moves(game.deserialise(battle.board))[0]
        battle = submit_move(
            battle.pk,
            side=game.sides[0].key,
            version=battle.clock_version,
            notation=notation,
            now=timezone.now(),
        )
    offer_end(battle.pk, side=battle.rules.sides[0].key, now=timezone.now())
    return accept_end(battle.pk, side=battle.rules.sides[1].key, now=timezone.now())


def test_start_page_needs_a_login(client):
    r = client.get(reverse("play:start"))
    assert r.status_code == 302 and reverse("login") in r["Location"]


def test_challenging_a_user_by_name_lists_it_for_both(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    client.force_login(alice)
    r = client.post(
        reverse("play:start"),
        {
            "username": "BOB",
            "game": "cavalli",
            "timing": "correspondence",
            "days": 4,
            "first": "random",
        },
    )
    assert r.status_code == 302
    c = Challenge.objects.get()
    assert (c.challenger, c.opponent, c.days) == (alice, bob, 4)
    client.force_login(bob)
    page = client.get(reverse("play:start")).content.decode()
    assert f'action="{reverse("play:answer", args=[c.pk, "accept"])}"' in page


def checked(page: str, name: str) -> list[str]:
    """The values of the checked radio buttons called ``name`` in ``page``."""
    return re.findall(rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*\schecked', page)


def test_the_challenge_form_starts_at_quickfire_30_moves_random_sides(client):
    client.force_login(UserFactory(username="alice"))
    page = client.get(reverse("play:start")).content.decode()
    form = page.split('id="new-challenge"')[1].split("</section>")[0]
    assert checked(form, "timing") == ["quickfire"]
    assert checked(form, "move_limit") == ["30"]
    assert checked(form, "first") == ["random"]
    assert checked(form, "game") == ["thud"]
    assert "Who moves first" not in form and "I move first" not in form


def test_the_challenge_form_names_each_side_in_each_game(client):
    client.force_login(UserFactory(username="alice"))
    page = client.get(reverse("play:start")).content.decode()
    form = page.split('id="new-challenge"')[1].split("</section>")[0]
    labels = dict(re.findall(r'name="first" value="(\w+)"[^>]*>(.*?)</label>', form, re.S))
    for value, index in (("challenger", 0), ("opponent", 1)):
        for game in registry.all_games():
            assert f'data-side-for="{game.key}">{game.sides[index].name}<' in labels[value]
    assert labels["random"].strip() == "Random"


@pytest.mark.parametrize("game", ["thud", "cavalli"])
@pytest.mark.parametrize(("first", "challenger_side"), [("challenger", 0), ("opponent", 1)])
def test_the_side_chosen_by_name_is_the_side_the_challenger_plays(
    client, game, first, challenger_side
):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    client.force_login(alice)
    data = {"username": "bob", "game": game, "timing": "quickfire", "days": 3, "first": first}
    assert client.post(reverse("play:start"), data).status_code == 302
    battle = challenges.accept(Challenge.objects.get().pk, by=bob, now=timezone.now())
    sides = battle.rules.sides
    alices = sides[0] if battle.first_user == alice else sides[1]
    assert alices.key == sides[challenger_side].key


@pytest.mark.parametrize(("move_limit", "max_plies"), [("24", 48), ("30", 60), ("", 60)])
def test_the_move_limit_chosen_on_the_form_is_the_battles(client, move_limit, max_plies):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    client.force_login(alice)
    data = {"username": "bob", "game": "cavalli", "timing": "quickfire", "days": 3,
            "first": "random", "move_limit": move_limit}  # fmt: skip
    assert client.post(reverse("play:start"), data).status_code == 302
    battle = challenges.accept(Challenge.objects.get().pk, by=bob, now=timezone.now())
    assert battle.max_plies == max_plies


@pytest.mark.parametrize(
    "bad",
    [
        {"move_limit": "25"},
        {"move_limit": "thirty"},
        {"username": "nobody"},
        {"username": "alice"},
        {"days": 15},
        {"days": "x"},
        {"game": "chess"},
        {"timing": "blitz"},
        {"first": ""},
    ],
)
def test_a_bad_challenge_is_a_400_with_a_message_and_stores_nothing(client, bad):
    alice = UserFactory(username="alice")
    UserFactory(username="bob")
    client.force_login(alice)
    data = {"username": "bob", "game": "thud", "timing": "quickfire", "days": 3, "first": "random"}
    r = client.post(reverse("play:start"), data | bad)
    assert r.status_code == 400
    assert 'class="errorlist' in r.content.decode()
    assert not Challenge.objects.exists()


def test_accepting_a_seek_redirects_to_the_new_battle_page(client):
    alice, bob = UserFactory(), UserFactory()
    seek = challenges.create_challenge(
        by=alice, game="thud", timing="quickfire", first="random", now=timezone.now()
    )
    client.force_login(bob)
    r = client.post(reverse("play:answer", args=[seek.pk, "accept"]))
    battle = Battle.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("games:battle", args=[battle.pk])
    assert client.get(r["Location"]).status_code == 200


def test_refused_answers_are_4xx_and_change_nothing(client):
    alice, bob = UserFactory(), UserFactory()
    seek = challenges.create_challenge(
        by=alice, game="thud", timing="quickfire", first="random", now=timezone.now()
    )
    client.force_login(alice)
    assert client.post(reverse("play:answer", args=[seek.pk, "accept"])).status_code == 409
    assert client.post(reverse("play:answer", args=[seek.pk, "decline"])).status_code == 409
    assert client.post(reverse("play:answer", args=[seek.pk, "explode"])).status_code == 404
    assert client.post(reverse("play:answer", args=[seek.pk + 99, "accept"])).status_code == 404
    assert client.get(reverse("play:answer", args=[seek.pk, "accept"])).status_code == 405
    client.force_login(bob)
    assert client.post(reverse("play:answer", args=[seek.pk, "cancel"])).status_code == 409
    seek.refresh_from_db()
    assert seek.status == Challenge.Status.OPEN and not Battle.objects.exists()


def test_withdrawing_and_declining(client):
    alice, bob = UserFactory(), UserFactory()
    c1 = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=timezone.now()
    )
    client.force_login(alice)
    assert client.post(reverse("play:answer", args=[c1.pk, "cancel"])).status_code == 302
    c2 = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=timezone.now()
    )
    client.force_login(bob)
    assert client.post(reverse("play:answer", args=[c2.pk, "decline"])).status_code == 302
    assert sorted(Challenge.objects.values_list("status", flat=True)) == ["cancelled", "declined"]


def test_your_games_lists_games_waiting_for_your_move_first(client):
    alice, bob = UserFactory(), UserFactory()
    waiting = casual(alice, bob)  # alice (white) to move
    theirs = casual(bob, alice)  # bob to move
    client.force_login(alice)
    page = client.get(reverse("play:games")).content.decode()
    your_move, others = page.split('id="other-games"')
    assert f'data-battle="{waiting.pk}"' in your_move and f'data-battle="{theirs.pk}"' in others


def test_the_your_move_count_follows_the_turn_in_both_games():
    alice, bob = UserFactory(), UserFactory()
    casual(alice, bob)
    casual(alice, bob, game="thud", seed=None)  # alice has the dwarfs: her move
    casual(bob, alice)
    assert (your_move_count(alice), your_move_count(bob)) == (2, 1)
    finish(casual(alice, bob), first_moves=False)  # finished: nobody's move
    assert (your_move_count(alice), your_move_count(bob)) == (2, 1)


def test_the_navigation_badge_shows_the_count_with_one_query_more(client):
    alice, bob = UserFactory(), UserFactory()
    client.force_login(alice)
    client.get(reverse("rules"))  # the first request also saves the session
    with CaptureQueriesContext(connection) as none:
        page = client.get(reverse("rules")).content.decode()
    assert 'title="Games waiting for your move"' not in page
    casual(alice, bob)
    casual(alice, bob)
    with CaptureQueriesContext(connection) as two:
        page = client.get(reverse("rules")).content.decode()
    assert re.search(r'title="Games waiting for your move">.*?</span> 2</span>', page)
    assert len(two) == len(none)
    assert sum("games_battle" in q["sql"] for q in two.captured_queries) == 1


def test_your_games_page_queries_do_not_grow_with_the_games(client):
    alice, bob = UserFactory(), UserFactory()
    client.force_login(alice)
    casual(alice, bob)
    casual(bob, alice)
    client.get(reverse("play:games"))  # the first request also saves the session
    with CaptureQueriesContext(connection) as small:
        client.get(reverse("play:games"))
    for _ in range(4):
        casual(alice, bob)
        casual(bob, alice)
    with CaptureQueriesContext(connection) as large:
        r = client.get(reverse("play:games"))
    assert r.content.decode().count("data-battle=") == 10
    assert len(large) == len(small)


def test_statistics_count_finished_games_by_winning_side_site_wide_and_per_player(client):
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    finish(casual(alice, bob), first_moves=True)  # white (alice) wins
    finish(casual(bob, carol), first_moves=True)  # white (bob) wins
    finish(casual(carol, alice), first_moves=False)  # draw
    casual(alice, carol)  # running: not counted
    r = client.get(reverse("play:stats"), {"player": "alice"})
    section = r.content.decode().split('id="stats-cavalli"')[1].split("</section>")[0]
    assert "<td>2 (66.67 %)</td>" in section  # white won 2 of 3
    assert "<td>1 (33.33 %)</td>" in section  # 1 draw
    assert "won 1 of 1 as White" in section and "won 0 of 1 as Black" in section
    thud = r.content.decode().split('id="stats-thud"')[1].split("</section>")[0]
    assert "<td>0 (0.00 %)</td>" in thud


def test_statistics_queries_do_not_grow_with_the_games(client):
    alice, bob = UserFactory(username="alice"), UserFactory()
    finish(casual(alice, bob), first_moves=True)
    with CaptureQueriesContext(connection) as small:
        client.get(reverse("play:stats"), {"player": "alice"})
    for _ in range(3):
        finish(casual(alice, bob), first_moves=True)
        finish(casual(bob, alice), first_moves=False)
    with CaptureQueriesContext(connection) as large:
        client.get(reverse("play:stats"), {"player": "alice"})
    assert len(large) == len(small)


def test_statistics_of_an_unknown_player_is_a_404(client):
    assert client.get(reverse("play:stats"), {"player": "ghost"}).status_code == 404


@pytest.mark.parametrize(
    "name",
    ["\x00", "alice\x00", "a" * 151, "x" * 100_000, "bоb", "💥" * 40, "%", "_", "ali%", "\ufffd"],
)
def test_any_bad_player_name_answers_404_saying_there_is_no_such_user(client, name):
    UserFactory(username="alice")
    UserFactory(username="bob")
    r = client.get(reverse("play:stats"), {"player": name})
    assert r.status_code == 404
    assert "There is no user with that name." in r.content.decode()


def test_a_nul_in_the_raw_query_string_is_a_404_not_a_500(client):
    assert client.get(reverse("play:stats") + "?player=%00").status_code == 404


def test_the_cavalli_rules_page_draws_a_starting_board(client):
    page = client.get(reverse("rules_game", args=["cavalli"])).content.decode()
    assert 'class="cavalli-board"' in page
    assert page.count('data-square="') == 100 and "♘" not in page
    assert reverse("rules_game", args=["cavalli"]) in client.get(reverse("rules")).content.decode()


def test_the_rules_of_an_unknown_game_are_a_404(client):
    assert client.get(reverse("rules_game", args=["chess"])).status_code == 404


def test_notifications_can_be_turned_off_on_the_settings_page(client):
    alice = UserFactory()
    client.force_login(alice)
    assert client.get(reverse("play:settings")).status_code == 200
    r = client.post(reverse("play:settings"), {})  # unchecked box
    assert r.status_code == 302
    assert UserProfile.objects.get(user=alice).email_notifications is False


@pytest.mark.parametrize("name", ["play:start", "play:games", "play:stats", "play:settings"])
def test_every_play_page_is_linked_from_the_navigation(client, name):
    client.force_login(UserFactory())
    assert f'href="{reverse(name)}"' in client.get(reverse("home")).content.decode()


def test_after_the_first_move_the_second_player_has_the_move():
    alice, bob = UserFactory(), UserFactory()
    battle = casual(alice, bob)
    game = battle.rules
    notation = game.legal_moves(game.deserialise(battle.board))[0]
    submit_move(
        battle.pk, side="white", version=battle.clock_version, notation=notation, now=timezone.now()
    )
    assert (your_move_count(alice), your_move_count(bob)) == (0, 1)
