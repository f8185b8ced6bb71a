"""The battle page plays casual battles of either game (HTTP, no browser)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.battles.play import accept_end, offer_end, submit_move
from games.battles.starting import create_casual_battle
from games.cavalli import parse_square
from games.models.battle import Battle
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def cavalli(seed: int = 7) -> Battle:
    white, black = UserFactory(username="white_player"), UserFactory(username="black_player")
    return create_casual_battle(
        game="cavalli",
        first=white,
        second=black,
        timing="correspondence",
        board_seed=seed,
        now=timezone.now(),
    )


def test_spectator_sees_the_numbered_board_and_both_players(client):
    b = cavalli()
    r = client.get(reverse("games:battle", args=[b.pk]))
    html = r.content.decode()
    assert r.status_code == 200
    assert "white_player" in html and "black_player" in html
    assert 'class="cavalli-board"' in html and 'name="to"' not in html


def test_the_player_to_move_gets_targets_and_moves_by_clicking(client):
    b = cavalli()
    client.force_login(b.first_user)
    page = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert 'name="to" value="D1"' in page
    r = client.post(
        reverse("games:move", args=[b.pk]), {"version": b.clock_version, "to": "D1"}, **HX
    )
    assert r.status_code == 200
    b.refresh_from_db()
    assert (b.ply, b.side_to_move) == (1, "black")
    assert b.moves.get().notation == "D1"


def test_landing_on_a_double_asks_which_double_to_strike_out(client):
    b = cavalli()  # seed 7: A1 holds 33, a double
    client.force_login(b.first_user)
    url = reverse("games:move", args=[b.pk])
    r = client.post(url, {"version": b.clock_version, "to": "A1"}, **HX)
    html = r.content.decode()
    assert 'type="radio" class="option-input" name="captures" value="C1"' in html
    assert 'aria-label="Strike out 33"' not in html  # A1, the landing square, is no option
    assert Battle.objects.get(pk=b.pk).ply == 0
    data = {"version": b.clock_version, "to": "A1", "confirm": "1", "captures": "C1"}
    client.post(url, data, **HX)
    assert Battle.objects.get(pk=b.pk).moves.get().notation == "A1 xC1"


def test_the_opponent_cannot_move_out_of_turn(client):
    b = cavalli()
    client.force_login(b.second_user)
    r = client.post(
        reverse("games:move", args=[b.pk]), {"version": b.clock_version, "to": "C10"}, **HX
    )
    assert r.status_code == 409 and "error-box" in r.content.decode()
    assert Battle.objects.get(pk=b.pk).ply == 0


def test_a_stranger_may_watch_but_not_move(client):
    b = cavalli()
    client.force_login(UserFactory())
    r = client.post(reverse("games:move", args=[b.pk]), {"version": 1, "to": "C1"}, **HX)
    assert r.status_code == 403


def test_casual_thud_battle_page_and_diagram_work(client):
    a, c = UserFactory(username="ann"), UserFactory(username="cid")
    b = create_casual_battle(game="thud", first=a, second=c, timing="quickfire", now=timezone.now())
    assert client.get(reverse("games:battle", args=[b.pk])).status_code == 200
    r = client.get(reverse("games:diagram", args=[b.pk]))
    assert r.status_code == 200 and "ann" in r.content.decode()


def _play(b: Battle, plies: int) -> None:
    game = b.rules
    for _ in range(plies):
        b.refresh_from_db()
        move = game.legal_moves(game.deserialise(b.board))[-1]
        submit_move(
            b.pk, side=b.side_to_move, version=b.clock_version, notation=move, now=timezone.now()
        )


@pytest.mark.parametrize("game", ["cavalli", "thud"])
def test_page_queries_do_not_grow_with_the_moves(client, game):
    counts = []
    for plies in (2, 8):
        # A fixed board: a random Cavalli board may leave no legal move before ply 8.
        b = create_casual_battle(
            game=game, first=UserFactory(), second=UserFactory(), board_seed=1, now=timezone.now()
        )
        _play(b, plies)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("games:battle", args=[b.pk])).status_code == 200
        counts.append(len(ctx))
    assert counts[0] == counts[1]


def test_a_casual_game_has_no_tournament_record_or_api_entry_but_a_replay(client):
    # Records and the battles API carry a tournament's tags: a casual game is not there,
    # and its page does not link to them. Its replay is there, in either game (issue 42:
    # Cavalli's replay), linked once a move has been played.
    b = cavalli()
    page = client.get(f"/battles/{b.pk}/").content.decode()
    assert f"/battles/{b.pk}/record.txt" not in page and f"/battles/{b.pk}/replay/" not in page
    for url in (f"/battles/{b.pk}/record.txt", f"/api/battles/{b.pk}"):
        assert client.get(url).status_code == 404, url
    for url in (f"/battles/{b.pk}/replay/", f"/battles/{b.pk}/diagram/?ply=0"):
        assert client.get(url).status_code == 200, url
    assert client.get(f"/battles/{b.pk}/diagram/").status_code == 200


def test_a_finished_battle_says_who_won_or_that_it_was_a_draw(client):
    def cavalli():
        return create_casual_battle(
            game="cavalli",
            first=UserFactory(),
            second=UserFactory(),
            board_seed=7,
            now=timezone.now(),
        )

    drawn = cavalli()
    offer_end(drawn.pk, side="white", now=timezone.now())
    accept_end(drawn.pk, side="black", now=timezone.now())  # 0 - 0 by agreement
    page = client.get(reverse("games:battle", args=[drawn.pk])).content.decode()
    assert '<p class="result" id="battle-result"><strong>Draw</strong></p>' in page

    won = cavalli()
    won = submit_move(
        won.pk, side="white", version=won.clock_version, notation="D1", now=timezone.now()
    )
    offer_end(won.pk, side="white", now=timezone.now())
    accept_end(won.pk, side="black", now=timezone.now())
    page = client.get(reverse("games:battle", args=[won.pk])).content.decode()
    assert '<p class="result" id="battle-result"><strong>White won</strong></p>' in page
    clock_panel = page.split('id="clock-panel"')[1].split("</div>\n</div>")[0]
    assert "to move" not in clock_panel  # nobody is to move in a finished battle

    running = client.get(reverse("games:battle", args=[cavalli().pk])).content.decode()
    assert 'id="battle-result"' not in running
    # A quickfire battle counts its moves to the limit (30 per side unless chosen).
    assert "Move 1 of 30 (White)" in running.split('id="clock-panel"')[1]


def test_the_strike_out_choice_names_the_doubles_by_their_numbers_and_says_no_captures(client):
    b = cavalli()  # seed 7: A1 holds 33, a double
    client.force_login(b.first_user)
    # The pending choice is in the page's address: a reload shows it again.
    html = client.get(reverse("games:battle", args=[b.pk]) + "?to=A1").content.decode()
    state = b.rules.initial_state({"board_seed": 7})
    options = {m.captures[0] for m in b.rules.candidates(state, "", "A1")}
    assert len(options) > 1
    prompt = html.split('id="choice-prompt">')[1].split("</p>")[0]
    for square in options:
        number = f"{state.number_at(parse_square(square)):02d}"
        assert f'value="{square}"' in html
        assert f'aria-label="Strike out {number}"' in html and number in prompt
        assert square not in prompt  # the prompt lists numbers, not square names
    # Cavalli takes no pieces: no capture counts on its page; no Thud in its subtitle.
    text = re.sub(r"<[^>]+>", " ", html)
    assert 'id="material"' not in html and "capture" not in text.lower()
    assert "Thud" not in html.split("<h1>")[1].split("</h1>")[0]
    assert Battle.objects.get(pk=b.pk).ply == 0


def test_a_cavalli_page_in_italian_says_no_thud_and_no_captures(client):
    b = cavalli()
    client.force_login(b.first_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    html = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    heading = html.split("<h1>")[1].split("</h1>")[0]
    assert "Battaglia di Cavalli" in heading and "Thud" not in heading
    assert "cattur" not in re.sub(r"<[^>]+>", " ", html).lower()


@pytest.mark.parametrize("game", ["thud", "cavalli"])
def test_an_untimed_casual_battle_is_subtitled_untimed_with_no_clock_words(client, game):
    b = create_casual_battle(
        game=game,
        first=UserFactory(),
        second=UserFactory(),
        timing="quickfire",
        timed=False,
        board_seed=7,
        now=timezone.now(),
    )
    client.force_login(b.first_user)
    html = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    subtitle = html.split("<h1>")[1].split("</h1>")[0].split("<small")[1]
    assert "untimed" in subtitle and "Quickfire" not in subtitle
    assert "Sound at 5 s" not in html and "s to think" not in html
