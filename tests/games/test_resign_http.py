"""Resigning over HTTP (``games.web.views.resign_battle``): asked first with the score it
ends with, then done once; the battle page and the casual match say how it ended."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.play import resign
from games.battles.settle import settle
from games.battles.starting import create_casual_battle
from games.models.battle import Battle
from games.models.history import ClockEvent
from tests.factories import UserFactory
from tests.play.test_matches import play_to_end, rated_match

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def battle() -> Battle:
    b = create_casual_battle(
        game="thud", first=UserFactory(), second=UserFactory(), now=timezone.now()
    )
    # Twelve dwarfs gone: Dwarfs 20 – Trolls 32 as it stands.
    Battle.objects.filter(pk=b.pk).update(board=b.board.replace("d", ".", 12))
    return Battle.objects.get(pk=b.pk)


def post(client, battle: Battle, headers=None, **data):
    return client.post(reverse("games:resign", args=[battle.pk]), data, **(headers or {}))


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "plain"])
def test_resign_asks_first_saying_the_score_and_the_winner_and_changes_nothing(
    client, battle, headers
):
    client.force_login(battle.first_user)
    page = client.get(reverse("games:battle", args=[battle.pk])).text
    assert 'id="resign"' in page and "data-confirm=" in page  # the dialog's question, said
    r = post(client, battle, headers, version=battle.clock_version)
    assert r.status_code == 400
    text = r.text
    assert 'id="confirm-resign"' in text and "Resign this battle?" in text
    assert (
        "The battle ends now with the score as it stands (Dwarfs 20 – Trolls 32); the win goes to Trolls."
        in text
    )
    assert f'name="version" value="{battle.clock_version}"' in text
    assert ("<html" in text) is (headers is not HX)
    assert Battle.objects.get(pk=battle.pk).status == "running"


def test_the_answer_resigns_once_and_the_pages_say_who_won_and_why(client, battle):
    client.force_login(battle.first_user)
    data = {"version": battle.clock_version, "confirm": "1"}
    r = post(client, battle, HX, **data)
    assert r.status_code == 200
    assert "Trolls won: Dwarfs resigned" in r.text and "(resigned)" in r.text
    again = post(client, battle, HX, **data)  # a double tap
    assert again.status_code == 200
    assert ClockEvent.objects.filter(battle=battle, kind="resigned").count() == 1
    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.finished_reason, stored.winner) == ("resigned", "troll")
    # The opponent and a spectator read the same.
    client.force_login(battle.second_user)
    page = client.get(reverse("games:battle", args=[battle.pk])).text
    assert "Trolls won: Dwarfs resigned" in page and 'id="resign"' not in page
    client.logout()
    assert (
        "Trolls won: Dwarfs resigned" in client.get(reverse("games:battle", args=[battle.pk])).text
    )


def test_resigning_a_finished_battle_says_it_is_over_and_changes_nothing(client, battle):
    resign(battle.pk, side="troll", version=battle.clock_version, now=timezone.now())
    client.force_login(battle.first_user)
    r = post(client, battle, HX, version=battle.clock_version + 1, confirm="1")
    assert r.status_code == 409 and "This battle is over." in r.text
    assert Battle.objects.get(pk=battle.pk).winner == "dwarf"


def test_someone_not_seated_cannot_resign(client, battle):
    client.force_login(UserFactory())
    assert post(client, battle, HX, version=battle.clock_version, confirm="1").status_code == 403
    assert Battle.objects.get(pk=battle.pk).status == "running"


def test_a_battle_lost_on_time_says_so_and_its_mark_is_on_the_winner(client):
    # The issue: Dwarfs 30 ✓ – Trolls 32 · Finished (lost on time) · Dwarfs won.
    b = create_casual_battle(
        game="thud",
        first=UserFactory(),
        second=UserFactory(),
        timing="correspondence",
        days=1,
        now=timezone.now(),
    )
    Battle.objects.filter(pk=b.pk).update(board=b.board.replace("d", ".", 2), side_to_move="troll")
    settle(b.pk, via=ClockEvent.Via.SWEEP, now=timezone.now() + timedelta(days=1, seconds=5))
    page = client.get(reverse("games:battle", args=[b.pk])).text
    assert "Dwarfs won: Trolls lost on time" in page
    assert "Dwarfs 30 ✓ – Trolls 32" in page  # the mark goes with the winner the line names


def test_the_match_line_says_the_player_who_lost_a_battle_on_time_lost_the_match(client):
    t0 = timezone.now()
    m = rated_match(now=t0, timing="correspondence")
    play_to_end(m.battle_1_id, now=t0)  # 32 – 32
    m.refresh_from_db()
    b2 = Battle.objects.get(pk=m.battle_2_id)
    # Battle 2: Bob has the dwarfs and lost 4 of them, Alice (the trolls) runs out of time.
    Battle.objects.filter(pk=b2.pk).update(
        board=b2.board.replace("d", ".", 4), side_to_move="troll"
    )
    settle(b2.pk, via=ClockEvent.Via.SWEEP, now=t0 + timedelta(days=3, seconds=5))
    m.refresh_from_db()
    assert m.winner == m.user_b and m.differential_a == -1
    page = client.get(reverse("games:battle", args=[b2.pk])).text
    assert "Dwarfs won: Trolls lost on time" in page
    assert (
        "Match result: bob wins the match: alice lost battle 2 on time (total score 60–64)." in page
    )
