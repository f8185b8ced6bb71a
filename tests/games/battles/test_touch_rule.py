"""The touched-piece rule (DESIGN.md §5): under the ``touch`` commit rule, a player who
touched a piece during think must move that piece.

Checked at the workflow level (``games.battles`` with explicit ``now``) and through the
player's HTTP touch and move views, which reach the same workflow functions.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.errors import NotAllowed
from games.battles.play import submit_move, touch
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.models.history import Move
from games.thud import Position, parse_move
from tests.factories import make_match

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def ms(n: int) -> timedelta:
    return timedelta(milliseconds=n)


@pytest.fixture
def t0():
    return timezone.now().replace(microsecond=0)


@pytest.fixture
def touched(t0) -> Battle:
    """A timed online battle (touch rule) in which the dwarf player touched F1 in think."""
    match = make_match(variant="timed24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=t0)
    assert battle.commit_rule == "touch" and battle.timed
    return touch(battle.pk, side="dwarf", version=1, square="F1", now=t0 + ms(100))


def test_a_move_of_another_piece_after_a_touch_is_refused_and_changes_nothing(touched, t0):
    before = Battle.objects.get(pk=touched.pk)
    assert before.touched_square == "F1"
    # Without the touch, G1-G2 is a legal opening move: only the touch forbids it.
    assert parse_move("d G1-G2", Position.initial(), "subset")
    with pytest.raises(NotAllowed, match="F1"):
        submit_move(
            touched.pk,
            side="dwarf",
            version=before.clock_version,
            notation="d G1-G2",
            now=t0 + ms(200),
        )
    after = Battle.objects.get(pk=touched.pk)
    assert (after.board, after.ply, after.side_to_move) == (before.board, 0, "dwarf")
    assert (after.clock_version, after.touched_square) == (before.clock_version, "F1")
    assert not Move.objects.filter(battle=touched).exists()


def test_the_touched_piece_may_still_be_moved(touched, t0):
    b = submit_move(
        touched.pk,
        side="dwarf",
        version=touched.clock_version,
        notation="d F1-F2",
        now=t0 + ms(200),
    )
    assert (b.ply, b.side_to_move, b.touched_square) == (1, "troll", "")
    assert list(Move.objects.filter(battle=b).values_list("notation", flat=True)) == ["d F1-F2"]


def test_player_who_touched_a_piece_cannot_move_another_over_http(client):
    # Long phases so the real clock of an HTTP request never expires the turn mid-test.
    match = make_match(variant="timed24", think_ms=60_000, move_ms=60_000)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=timezone.now())
    client.force_login(battle.first_entry.player.user)
    client.post(
        reverse("games:touch", args=[battle.pk]),
        {"square": "F1", "version": battle.clock_version},
        **HX,
    )
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.touched_square == "F1"
    move_url = reverse("games:move", args=[battle.pk])

    r = client.post(move_url, {"from": "G1", "to": "G2", "version": battle.clock_version}, **HX)

    assert r.status_code == 409 and "You touched F1" in r.content.decode()
    after = Battle.objects.get(pk=battle.pk)
    assert (after.board, after.ply) == (battle.board, 0)
    assert not Move.objects.filter(battle=battle).exists()
    r = client.post(move_url, {"from": "F1", "to": "F2", "version": battle.clock_version}, **HX)
    assert "d F1-F2" in r.content.decode()
    assert Battle.objects.get(pk=battle.pk).ply == 1
