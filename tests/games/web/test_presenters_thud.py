"""games/web/presenters_thud.py: a battle's stored position, read once per diagram."""

from __future__ import annotations

from games.models.battle import Battle
from games.thud import Position
from games.web.presenters_thud import position_of


def test_a_diagram_is_read_once_and_its_position_shared():
    opening = Position.initial()
    after = opening.play(opening.legal_moves()[0])
    first, second = (Battle(board=after.to_diagram()) for _ in range(2))
    assert position_of(first) == after
    assert position_of(second) is position_of(first)  # read once, then shared
    assert position_of(Battle(board=opening.to_diagram())) == opening != after


def test_a_battle_without_a_stored_board_shows_the_opening():
    assert position_of(Battle(board="")) == Position.initial()
