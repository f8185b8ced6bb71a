"""The move, touch and end-offer endpoints answer a refusal with a 4xx status and the same
helpful text: 409 for a stale version or a move out of turn (the battle's state), 400 for
what was sent (not a square, not a legal move), 403 for someone not seated. htmx gets the
board fragment with the message (``base.html`` tells htmx to swap those answers); a plain
POST gets the whole battle page with it, never a redirect that hides the refusal."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.referee import referee_decision
from games.battles.starting import create_battles, create_casual_battle, start_battle
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from tests.factories import UserFactory, make_match
from tests.games.test_battles_http import diagram

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def online(db) -> Battle:
    """A tournament battle under the touch rule, dwarfs to move."""
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    return start_battle(b1.pk, now=timezone.now())


def login(client, battle: Battle, side: str):
    entry = battle.first_entry if side == "dwarf" else battle.second_entry
    client.force_login(entry.player.user)
    return client


def post(client, battle: Battle, name: str, data: dict, *, hx: bool = True, args=()):
    url = reverse(name, args=[battle.pk, *args])
    return client.post(url, data, **(HX if hx else {}))


def unchanged(battle: Battle) -> bool:
    now = Battle.objects.get(pk=battle.pk)
    return (now.clock_version, now.touched_square, now.ply) == (
        battle.clock_version,
        battle.touched_square,
        battle.ply,
    ) and not Move.objects.filter(battle=battle).exists()


# --- moves ---------------------------------------------------------------------------


def test_a_move_out_of_turn_is_409_with_the_fragment_for_htmx(client, online):
    login(client, online, "troll")
    r = post(client, online, "games:move", {"from": "G7", "to": "G6", "version": 1})
    html = r.content.decode()
    assert r.status_code == 409 and "It is not your turn." in html
    assert html.lstrip().startswith("<section") and "<html" not in html
    assert unchanged(online)


def test_a_plain_post_refusal_answers_409_with_the_battle_page_not_a_redirect(client, online):
    login(client, online, "dwarf")
    data = {"from": "F1", "to": "F2", "version": online.clock_version - 1}
    r = post(client, online, "games:move", data, hx=False)
    html = r.content.decode()
    assert r.status_code == 409 and "<html" in html and 'id="board-panel"' in html
    assert "changed meanwhile" in html.split('class="error-box"')[1]
    assert unchanged(online)


def test_an_illegal_or_malformed_move_is_400(client, online):
    login(client, online, "dwarf")
    for to in ("H8", "F99", "", "x" * 1000):
        r = post(client, online, "games:move", {"from": "F1", "to": to, "version": 1})
        assert r.status_code == 400, to
        assert "That move is not legal here." in r.content.decode()
    r = post(client, online, "games:move", {"from": "F1", "to": "H8", "version": 1}, hx=False)
    assert r.status_code == 400 and "<html" in r.content.decode()
    assert unchanged(online)


def test_a_legal_move_still_answers_200_for_htmx_and_302_without(client, online):
    login(client, online, "dwarf")
    r = post(client, online, "games:move", {"from": "F1", "to": "F2", "version": 1})
    assert r.status_code == 200 and "error-box" not in r.content.decode()
    online.refresh_from_db()
    login(client, online, "troll")
    data = {"from": "G7", "to": "G6", "version": online.clock_version}
    r = post(client, online, "games:move", data, hx=False)
    assert r.status_code == 302


@pytest.mark.parametrize("name", ["games:move", "games:touch"])
def test_someone_not_seated_is_403(client, online, name):
    client.force_login(UserFactory())
    data = {"from": "F1", "to": "F2", "square": "F1", "version": 1}
    assert post(client, online, name, data).status_code == 403
    assert post(client, online, name, data, hx=False).status_code == 403
    client.logout()
    assert post(client, online, name, data).status_code == 403
    assert unchanged(online)


# --- touches -------------------------------------------------------------------------


def test_touching_out_of_turn_or_with_a_stale_version_is_409(client, online):
    login(client, online, "troll")
    r = post(client, online, "games:touch", {"square": "G7", "version": 1})
    assert r.status_code == 409 and "It is not your turn." in r.content.decode()
    login(client, online, "dwarf")
    r = post(client, online, "games:touch", {"square": "F1", "version": 0})
    assert r.status_code == 409 and "changed meanwhile" in r.content.decode()
    assert unchanged(online)


def test_touching_a_piece_that_is_not_yours_is_400(client, online):
    login(client, online, "dwarf")
    for square in ("G7", "F2"):  # a troll, an empty square
        r = post(client, online, "games:touch", {"square": square, "version": 1})
        assert r.status_code == 400 and "Touch one of your own pieces." in r.content.decode()
    assert unchanged(online)


# --- end offers ------------------------------------------------------------------------


def test_accepting_no_offer_is_409_and_strangers_are_403(client, online):
    login(client, online, "troll")
    r = post(client, online, "games:end", {}, args=["accept"])
    assert r.status_code == 409
    assert "There is no offer from your opponent to accept." in r.content.decode()
    client.force_login(UserFactory())
    assert post(client, online, "games:end", {}, args=["offer"]).status_code == 403
    assert Battle.objects.get(pk=online.pk).end_offered_by == ""


def test_an_offer_on_a_finished_battle_is_409(client, online):
    referee_decision(online.pk, reason="test", now=timezone.now())
    login(client, online, "dwarf")
    r = post(client, online, "games:end", {}, args=["offer"])
    assert r.status_code == 409 and "This battle cannot be ended now." in r.content.decode()
    assert not ClockEvent.objects.filter(battle=online, kind="end_agreed").exists()


# --- htmx is told to swap these answers -------------------------------------------------


def test_every_page_tells_htmx_to_swap_400_and_409_answers(client, online):
    html = client.get(reverse("games:battle", args=[online.pk])).content.decode()
    config = html.split('<meta name="htmx-config" content=\'')[1].split("'>")[0]
    assert '"^(400|409|422)$", "swap": true' in config


# --- touched squares: stored as the game names them, or refused ----------------------------


@pytest.mark.parametrize(
    "square", ["      F1", "F01", "F\uff11", "F1\x00", "A1", "Z9", "", "F" + "1" * 500]
)
def test_a_touch_of_anything_but_a_square_is_400_and_changes_nothing(client, online, square):
    login(client, online, "dwarf")
    r = post(client, online, "games:touch", {"square": square, "version": 1})
    assert r.status_code == 400
    assert "is not a square of this board." in r.content.decode()
    assert unchanged(online)
    r = post(client, online, "games:touch", {"square": square, "version": 1}, hx=False)
    assert r.status_code == 400 and unchanged(online)


def test_a_lower_case_touch_is_stored_as_the_square_and_its_piece_then_moves(client, online):
    login(client, online, "dwarf")
    r = post(client, online, "games:touch", {"square": "f1", "version": 1})
    assert r.status_code == 200
    touched = Battle.objects.get(pk=online.pk)
    assert touched.touched_square == "F1"
    r = post(client, online, "games:move", {"from": "F1", "to": "F2", "version": 2})
    assert r.status_code == 200 and "error-box" not in r.content.decode()
    assert Move.objects.get(battle=online).notation == "d F1-F2"


def test_a_selection_without_the_touch_rule_is_checked_too(client):
    white, black = UserFactory(), UserFactory()
    b = create_casual_battle(
        game="cavalli",
        first=white,
        second=black,
        timing="correspondence",
        board_seed=7,
        now=timezone.now(),
    )
    client.force_login(white)
    r = client.post(reverse("games:touch", args=[b.pk]), {"square": " c 1", "version": 1}, **HX)
    assert r.status_code == 400 and "is not a square of this board." in r.content.decode()
    r = client.post(reverse("games:touch", args=[b.pk]), {"square": "c1", "version": 1}, **HX)
    assert r.status_code == 200 and Battle.objects.get(pk=b.pk).touched_square == ""


# --- a refused choice names what the battle has --------------------------------------------


def test_a_refused_cavalli_choice_names_no_tournament_or_capture_policy(client):
    b = create_casual_battle(
        game="cavalli", first=UserFactory(), second=UserFactory(), board_seed=7, now=timezone.now()
    )  # seed 7: A1 holds 33, a double, so landing there asks which double to strike out
    client.force_login(b.first_user)
    data = {"version": b.clock_version, "to": "A1", "confirm": "1", "captures": "J10"}
    r = client.post(reverse("games:move", args=[b.pk]), data, **HX)
    html = r.content.decode()
    assert r.status_code == 400
    assert "That choice is not one of the moves offered here; choose again." in html
    assert "tournament" not in html.split('class="error-box"')[1].split("</p>")[0]
    assert Battle.objects.get(pk=b.pk).ply == 0


@pytest.mark.parametrize("casual", [True, False], ids=["casual", "tournament"])
def test_a_refused_thud_capture_choice_names_a_tournament_policy_only_in_a_tournament(
    client, online, casual
):
    if casual:
        online = create_casual_battle(
            game="thud", first=UserFactory(), second=UserFactory(), now=timezone.now()
        )
    # A troll on F6 beside dwarfs on E4 and G4: stepping to F5 may take either.
    Battle.objects.filter(pk=online.pk).update(
        board=diagram({(5, 5): "T", (3, 4): "d", (3, 6): "d", (0, 5): "d"}, "troll"),
        side_to_move="troll",
        capture_policy="subset",
    )
    b = Battle.objects.get(pk=online.pk)
    client.force_login(b.second_user if casual else b.second_entry.player.user)
    data = {"from": "F6", "to": "F5", "confirm": "1", "captures": ["F1"], "version": 1}
    r = post(client, b, "games:move", data)
    html = unescape(r.content.decode())
    assert r.status_code == 400
    policy = "That choice of captures is not allowed by this tournament's capture policy."
    generic = "That choice is not one of the moves offered here; choose again."
    assert (generic not in html, policy in html) == (not casual, not casual)
    assert not Move.objects.filter(battle=b).exists()
