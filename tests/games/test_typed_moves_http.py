"""A move typed in the game's notation (the battle page's text box, lichess's blind mode):
the game's own notation in any case, or just the squares; a clear refusal otherwise,
nothing applied twice."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.engines import registry
from games.models.battle import Battle
from games.models.history import Move
from games.rules.interface import InvalidMove
from games.web.presenters_play import typed_move
from tests.factories import make_match

HX = {"HTTP_HX_REQUEST": "true"}
THUD = registry.get("thud")


@pytest.mark.parametrize("text", ["d F1-F2", "D f1-f2", "  d   F1-F2 ", "F1 F2", "f1-f2"])
def test_a_thud_move_is_read_from_its_notation_or_its_squares(text):
    assert typed_move(THUD, THUD.initial_state(), text) == "d F1-F2"


@pytest.mark.parametrize("text", ["", "F1 H8", "zz", "d F1-G1"])
def test_what_is_not_a_legal_move_is_refused_in_words(text):
    with pytest.raises(InvalidMove) as exc:
        typed_move(THUD, THUD.initial_state(), text)
    assert str(exc.value)


def test_every_legal_opening_move_reads_back_as_itself():
    state = THUD.initial_state()
    for notation in THUD.legal_moves(state):
        assert typed_move(THUD, state, notation.lower()) == notation


def test_a_cavalli_move_is_read_from_its_landing_square():
    game = registry.get("cavalli")
    state = game.initial_state({"board_seed": 2002})
    for notation in game.legal_moves(state):
        assert typed_move(game, state, notation.lower()) == notation


@pytest.fixture
def online(db):
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    return start_battle(b1.pk, now=timezone.now())


def typed(client, battle, text, *, version=None):
    data = {"notation": text, "version": battle.clock_version if version is None else version}
    return client.post(reverse("games:move", args=[battle.pk]), data, **HX)


@pytest.mark.django_db
def test_a_typed_move_is_played_once(client, online):
    client.force_login(online.first_entry.player.user)
    r = typed(client, online, "f1 f2")
    assert r.status_code == 200 and 'id="board-panel"' in r.content.decode()
    assert list(Move.objects.filter(battle=online).values_list("notation", flat=True)) == [
        "d F1-F2"
    ]
    again = typed(client, online, "f1 f2")  # the same form sent twice: the old version
    assert again.status_code == 409
    assert Move.objects.filter(battle=online).count() == 1


@pytest.mark.django_db
def test_a_typed_move_that_is_not_legal_says_so_and_changes_nothing(client, online):
    client.force_login(online.first_entry.player.user)
    r = typed(client, online, "F1 H8")
    assert r.status_code == 400
    assert "is not a legal move here" in r.content.decode()
    assert not Move.objects.filter(battle=online).exists()
    assert Battle.objects.get(pk=online.pk).clock_version == online.clock_version


@pytest.mark.django_db
def test_a_typed_move_out_of_turn_is_refused(client, online):
    client.force_login(online.second_entry.player.user)
    r = typed(client, online, "T G7-G6")
    assert r.status_code == 409 and "It is not your turn." in r.content.decode()
    assert not Move.objects.filter(battle=online).exists()


class _TypedForm(HTMLParser):
    """The fields of the battle page's typed-move form, as a browser without JavaScript
    would send them."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.action, self.fields = False, "", {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "typed-move":
            self.inside, self.action = True, a["action"]
        elif self.inside and tag == "input" and a.get("type") == "hidden":
            self.fields[a["name"]] = a["value"]

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


@pytest.mark.django_db
def test_a_typed_move_without_javascript_plays_against_the_board_on_screen(client, online):
    client.force_login(online.first_entry.player.user)
    form = _TypedForm()
    form.feed(client.get(reverse("games:battle", args=[online.pk])).content.decode())
    assert form.fields["version"] == str(online.clock_version)
    r = client.post(form.action, {**form.fields, "notation": "F1 F2"}, follow=True)
    page = reverse("games:battle", args=[online.pk])
    assert r.status_code == 200 and r.redirect_chain == [(page, 302)]  # back to the board
    assert "d F1-F2" in r.content.decode() and "error-box" not in r.content.decode()
    assert list(Move.objects.filter(battle=online).values_list("notation", flat=True)) == [
        "d F1-F2"
    ]
