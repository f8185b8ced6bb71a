"""games/web/move_list.py: a battle's stored moves, read by one compiled query."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.models.history import Move
from games.web.move_list import stored_moves
from tests.factories import make_match


@pytest.mark.django_db
def test_the_moves_are_the_orms_in_order_each_knowing_its_battle(django_assert_num_queries):
    match = make_match(variant="quickfire24")[0]
    first, second = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(first.pk, now=timezone.now())
    for ply in (2, 0, 1):  # stored out of order
        Move.objects.create(
            battle=battle,
            ply=ply,
            side=("dwarf", "troll")[ply % 2],
            notation=f"n{ply}",
            kind="move",
            submitted_at=timezone.now(),
            clock_version_before=1,
        )
    Move.objects.create(
        battle=second,
        ply=0,
        side="dwarf",
        notation="other",
        kind="move",
        submitted_at=timezone.now(),
        clock_version_before=1,
    )
    with django_assert_num_queries(1):
        moves = stored_moves(battle)
        names = [m.side_display for m in moves]
    orm = list(battle.moves.all())
    assert [(m.pk, m.ply, m.notation) for m in moves] == [(m.pk, m.ply, m.notation) for m in orm]
    assert [m.ply for m in moves] == [0, 1, 2]
    assert names == [m.side_display for m in orm]
    assert stored_moves(Battle.objects.get(pk=second.pk))[0].notation == "other"
