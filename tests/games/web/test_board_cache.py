"""A spectator's board is rendered once per position and language, and served to every
other spectator (games/web/board_cache.py); it changes at the first read after a move; a
player's board, with its buttons, is never the cached one."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import make_match

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def online(db):
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    return start_battle(b1.pk, now=timezone.now())


def rendered(response) -> set[str]:
    return {template.name for template in response.templates}


def board_of(html: str) -> str:
    start = html.index('<div class="thud-board"')
    return html[start : html.index("</div>", start)]


def board_form(html: str) -> str:
    """The board's form: the board of any game, with its squares (not the CSRF token,
    masked anew for each page)."""
    start = html.index('id="board-form"')
    return re.sub(r'value="[A-Za-z0-9]{64}"', "", html[start : html.index("</form>", start)])


def square(board: str, name: str) -> str:
    """The element of the square ``name``, from its tag to the next square's."""
    at = board.index(f'data-square="{name}"')
    return board[board.rindex("<span", 0, at) : board.index("data-square=", at + 1)]


def test_the_second_spectator_gets_the_board_without_rendering_it(client, online):
    url = reverse("games:battle", args=[online.pk])
    first = client.get(url)
    second = client.get(url)
    assert "games/thud/board.html" in rendered(first)
    assert "games/thud/board.html" not in rendered(second)
    assert board_of(second.content.decode()) == board_of(first.content.decode())
    panel = client.get(url, **HX)  # the live refresh reads the same fragment
    assert "games/thud/board.html" not in rendered(panel)


@pytest.mark.parametrize("game", ["thud", "cavalli"])
def test_a_spectator_served_from_the_cache_draws_no_board(client, game, monkeypatch):
    match = make_match(variant="quickfire24", game=game)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=timezone.now())
    url = reverse("games:battle", args=[battle.pk])
    first = client.get(url)
    assert first.status_code == 200

    def refuse(*args, **kwargs):
        raise AssertionError("the board was drawn again")

    monkeypatch.setattr(f"games.web.presenters_{game}.board_view", refuse)
    second = client.get(url)
    assert second.status_code == 200
    assert board_form(second.content.decode()) == board_form(first.content.decode())
    assert client.get(url, **HX).status_code == 200


def test_a_move_shows_at_the_first_spectators_read_after_it(client, online):
    url = reverse("games:battle", args=[online.pk])
    before = board_of(client.get(url).content.decode())
    player = online.first_entry.player.user
    mover = client.__class__()
    mover.force_login(player)
    made = mover.post(
        reverse("games:move", args=[online.pk]),
        {"from": "F1", "to": "F2", "version": online.clock_version},
        **HX,
    )
    assert made.status_code == 200
    after = client.get(url)
    assert "games/thud/board.html" in rendered(after)
    board = board_of(after.content.decode())
    assert board != before
    assert 'href="#dwarf"' in square(board, "F2") and 'href="#dwarf"' not in square(before, "F2")


def test_each_language_has_its_own_board(client, online):
    url = reverse("games:battle", args=[online.pk])
    english = board_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert "games/thud/board.html" in rendered(italian)
    assert board_of(italian.content.decode()) != english
    assert 'aria-label="Board"' in english and 'aria-label="Board"' not in board_of(
        italian.content.decode()
    )


def test_a_players_board_is_never_the_spectators(client, online):
    url = reverse("games:battle", args=[online.pk])
    client.get(url)  # the spectators' board is cached
    client.force_login(online.first_entry.player.user)
    mine = client.get(url)
    assert "games/thud/board.html" in rendered(mine)
    assert "selectable" in board_of(mine.content.decode())
