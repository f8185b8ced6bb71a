"""Playing the computer from /play/: the form, its refusals and limit, and its battles kept
out of the statistics (shown apart on "Your games")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_casual_battle
from games.bots import moves as bots
from games.engines import registry
from games.models.battle import Battle
from play import computer, queries
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

THUD = registry.get("thud")
FIRST, SECOND = THUD.sides[0].key, THUD.sides[1].key
GOOD = {"game": "thud", "level": "3", "side": "you", "time_control": "quickfire"}


@pytest.fixture
def alice(client):
    user = UserFactory(username="alice")
    client.force_login(user)
    return user


def test_the_start_page_offers_the_computer_form(client, alice):
    page = client.get(reverse("play:start")).content.decode()
    section = page.split('id="play-computer"')[1].split("</section>")[0]
    assert f'action="{reverse("play:computer")}"' in section
    assert 'name="game" value="thud"' in section
    assert all(f'name="level" value="{n}"' in section for n in range(1, 6))


def test_each_button_on_the_start_page_has_a_label_of_its_own_and_each_group_a_legend(
    client, alice
):
    """Two forms on one page: an id used twice would let a label of the computer's form
    ("Thud") check the challenge form's button."""
    page = client.get(reverse("play:start")).content.decode()
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    radios = re.findall(r'<input type="radio"[^>]*\sid="([^"]+)"', page)
    assert radios and all(f'<label for="{i}">' in page for i in radios)
    assert '<label for="">' not in page
    section = page.split('id="play-computer"')[1].split("</section>")[0]
    legends = re.findall(r"<legend>([^<]+)</legend>", section)
    assert legends == ["Game", "Level", "Your side", "Time control", "Move limit"]


def test_playing_first_on_the_quickfire_clock_starts_the_battle_at_once(client, alice):
    r = client.post(reverse("play:computer"), GOOD)
    battle = Battle.objects.get()
    assert r.status_code == 302 and r.url == reverse("games:battle", args=[battle.pk])
    assert (battle.first_user, battle.second_user) == (alice, bots.computer_user())
    assert (battle.bot_level, battle.bot_side, battle.game) == (3, SECOND, "thud")
    assert battle.status == Battle.Status.RUNNING and battle.side_to_move == FIRST
    assert battle.timed and battle.deadline is not None
    assert battle.max_plies == 60  # quickfire: 30 moves per side unless chosen otherwise
    assert (battle.think_ms, battle.move_ms) == (15_000, 5_000)
    assert "The computer" in client.get(r.url).content.decode()


def test_the_computer_may_move_first_and_a_battle_may_be_untimed(client, alice):
    r = client.post(
        reverse("play:computer"), GOOD | {"side": "computer", "time_control": "untimed"}
    )
    battle = Battle.objects.get()
    assert r.status_code == 302
    assert (battle.first_user, battle.second_user) == (bots.computer_user(), alice)
    assert battle.bot_side == FIRST and battle.side_to_move == FIRST
    assert battle.status == Battle.Status.RUNNING
    assert not battle.timed and battle.deadline is None


@pytest.mark.parametrize(
    ("game", "time_control", "move_limit", "timed", "max_plies"),
    [
        ("thud", "quickfire", "24", True, 48),
        ("thud", "quickfire", "30", True, 60),
        ("cavalli", "quickfire", "24", True, 48),
        ("thud", "untimed", "24", False, 48),
        ("cavalli", "untimed", "30", False, 60),
        ("thud", "classic", "24", False, None),
        ("cavalli", "classic", "30", False, None),
    ],
)
def test_the_player_chooses_the_move_limit_of_quickfire_with_or_without_the_clock(
    client, alice, game, time_control, move_limit, timed, max_plies
):
    data = GOOD | {"game": game, "time_control": time_control, "move_limit": move_limit}
    assert client.post(reverse("play:computer"), data).status_code == 302
    battle = Battle.objects.get()
    assert (battle.game, battle.timed, battle.max_plies) == (game, timed, max_plies)


@pytest.mark.parametrize(
    ("game", "side", "player_side"),
    [
        ("thud", "you", "dwarf"),
        ("thud", "computer", "troll"),
        ("cavalli", "you", "white"),
        ("cavalli", "computer", "black"),
    ],
)
def test_the_side_chosen_by_its_name_is_the_side_the_player_plays(
    client, alice, game, side, player_side
):
    page = client.get(reverse("play:start")).content.decode()
    section = page.split('id="play-computer"')[1].split("</section>")[0]
    rules = registry.get(game)
    named = {s.key: s.name for s in rules.sides}[player_side]
    # The radio button's label names the side in this game (and in the others).
    label = re.search(rf'value="{side}"[^>]*>(.*?)</label>', section, re.S)
    assert label and f'data-side-for="{game}">{named}<' in label.group(1)
    assert (
        client.post(reverse("play:computer"), GOOD | {"game": game, "side": side}).status_code
        == 302
    )
    battle = Battle.objects.get()
    players_side = rules.sides[0 if battle.first_user == alice else 1].key
    assert players_side == player_side and battle.bot_side != player_side


@pytest.mark.parametrize("coin, bot_side", [(True, SECOND), (False, FIRST)])
def test_a_coin_decides_who_moves_first(coin, bot_side):
    battle = computer.start(
        by=UserFactory(),
        game="thud",
        level=1,
        side=computer.RANDOM,
        time_control=computer.QUICKFIRE,
        now=timezone.now(),
        coin=lambda: coin,
    )
    assert battle.bot_side == bot_side


@pytest.mark.parametrize(
    "bad",
    [
        {"level": "0"},
        {"level": "6"},
        {"level": "three"},
        {"side": "sideways"},
        {"time_control": "blitz"},
        {"move_limit": "25"},
        {"move_limit": "0"},
        {"game": "chess"},
        {"game": ""},
    ],
)
def test_bad_input_is_refused_with_a_message_and_creates_nothing(client, alice, bad):
    r = client.post(reverse("play:computer"), GOOD | bad)
    assert r.status_code == 400
    section = r.content.decode().split('id="play-computer"')[1].split("</section>")[0]
    assert 'class="errorlist' in section
    assert not Battle.objects.exists()


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("game", "chess", "The computer does not play this game."),
        ("level", 9, "Choose a level from 1 to 5."),
        ("side", "both", "Choose your side."),
        ("time_control", "blitz", "Choose quickfire, quickfire without a clock, or classic."),
        ("move_limit", 25, "Choose a move limit of 24 or 30 moves per side."),
        ("move_limit", None, "Choose a move limit of 24 or 30 moves per side."),
    ],
)
def test_the_domain_refuses_what_the_form_would(field, value, message):
    args = {"game": "thud", "level": 1, "side": "you", "time_control": "untimed"}
    with pytest.raises(computer.ComputerError) as refused:
        computer.start(by=UserFactory(), **(args | {field: value}), now=timezone.now())
    assert str(refused.value.message) == message
    assert not Battle.objects.exists()


def test_one_unfinished_battle_against_the_computer_at_a_time(client, alice):
    assert client.post(reverse("play:computer"), GOOD).status_code == 302
    r = client.post(reverse("play:computer"), GOOD)
    assert r.status_code == 400
    assert "You already have a battle against the computer that is not over" in r.content.decode()
    assert Battle.objects.count() == 1
    # Another player is not held back; and once the battle is over, the next may start.
    assert computer.start(
        by=UserFactory(),
        game="thud",
        level=1,
        side="you",
        time_control="untimed",
        now=timezone.now(),
    )
    Battle.objects.filter(first_user=alice).update(status=Battle.Status.FINISHED)
    assert client.post(reverse("play:computer"), GOOD).status_code == 302
    assert computer.unfinished(alice).count() == 1


def test_only_a_logged_in_player_may_play_the_computer_and_only_by_post(client):
    r = client.post(reverse("play:computer"), GOOD)
    assert r.status_code == 302 and reverse("login") in r.url
    client.force_login(UserFactory())
    assert client.get(reverse("play:computer")).status_code == 405
    assert not Battle.objects.exists()


def test_nobody_can_challenge_the_computer(client, alice):
    bots.computer_user()
    data = {"username": bots.COMPUTER_USERNAME, "game": "thud", "timing": "quickfire"}
    r = client.post(reverse("play:start"), data | {"days": "3", "first": "random"})
    assert r.status_code == 400
    assert "There is no user with that name." in r.content.decode()


def finished(battle: Battle, *, winner: str) -> Battle:
    Battle.objects.filter(pk=battle.pk).update(status=Battle.Status.FINISHED, winner=winner)
    return battle


def test_battles_against_the_computer_count_in_no_statistics_and_are_shown_apart(client, alice):
    bob = UserFactory(username="bob")
    people = create_casual_battle(game="thud", first=alice, second=bob, now=timezone.now())
    finished(people, winner=FIRST)
    for level, winner in ((2, FIRST), (2, ""), (4, SECOND)):
        battle = computer.start(
            by=alice,
            game="thud",
            level=level,
            side="you",
            time_control="untimed",
            now=timezone.now(),
        )
        finished(battle, winner=winner)

    assert queries.site_result_rows() == [("thud", 0, 1)]
    assert queries.player_result_rows(alice) == [("thud", 0, 0, 1)]
    stats = client.get(reverse("play:stats")).content.decode()
    thud = stats.split('id="stats-thud"')[1].split("</section>")[0]
    assert "<td>1</td>" in thud  # one game played, the one between people

    games = client.get(reverse("play:games")).content.decode()
    table = games.split('id="against-computer"')[1].split("</section>")[0]
    rows = [r.split("</tr>")[0] for r in table.split("<tbody>")[1].split("<tr>")[1:]]
    assert rows == [
        "<td>Thud</td><td>2</td><td>1</td><td>1</td><td>0</td>",
        "<td>Thud</td><td>4</td><td>0</td><td>0</td><td>1</td>",
    ]


def test_your_games_has_no_computer_table_without_such_games(client, alice):
    assert 'id="against-computer"' not in client.get(reverse("play:games")).content.decode()
