"""The hall screen's line of a battle (games/web/presenters_hall.py): its score read from
the board only when the line shows one (a hall of over-the-board battles reads none)."""

from __future__ import annotations

import pytest

from games.models.battle import Battle
from games.web.presenters_hall import hall_line


def unreadable(mode: str) -> Battle:
    return Battle(pk=1, game="thud", mode=mode, status=Battle.Status.RUNNING, board="no board")


def test_an_otb_line_without_a_confirmed_result_never_reads_the_board():
    line = hall_line(unreadable(Battle.Mode.OTB))
    assert line["score_pending"] is True
    assert [face["points"] for face in line["faces"]] == [None, None]


def test_an_online_line_scores_its_board():
    with pytest.raises(ValueError):
        hall_line(unreadable(Battle.Mode.ONLINE))
