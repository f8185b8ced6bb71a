"""The hall screen's live battles: one line per battle of the round, both clocks, the
move counter and the score as it stands (``games.web.views_hall``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.models.battle import Battle
from games.rules import clock_face
from games.web.presenters import shown_points, state_of
from games.web.presenters_play import clock_faces

#: Battles per slide at 1080p (two lines each).
BATTLES_PER_SLIDE = 6


def hall_line(battle: Battle, *, now: datetime) -> dict[str, Any]:
    """One battle as the audience sees it: table, battle number, the two seats (player,
    side, score, clock) and where the battle stands; an over-the-board battle shows its
    score only once its result is confirmed (``shown_points``)."""
    game = battle.rules
    points = shown_points(battle, state_of(battle))
    names = [
        entry.player.name if entry else "" for entry in (battle.first_entry, battle.second_entry)
    ]
    seats = [
        {
            "key": info.key,
            "name": _(info.name),
            "player": names[index],
            "points": None if points is None else points.get(info.key, 0),
        }
        for index, info in enumerate(game.sides)
    ]
    snap = clock_face.snapshot(battle.clock_state, now)
    faces = clock_faces(seats, viewer=None, snap=snap, think_ms=battle.think_ms)
    for face, seat in zip(faces, seats, strict=True):
        face["points"] = seat["points"]
    per_side = (battle.max_plies + 1) // 2 if battle.max_plies else None
    move_no = battle.ply // 2 + 1
    return {
        "battle": battle,
        "table": battle.match.table if battle.match else 0,
        "faces": faces,
        "snap": snap,
        "timed": battle.timed and battle.mode == Battle.Mode.ONLINE,
        # Over the board without a confirmed result: no score, a word instead.
        "score_pending": points is None,
        "move_no": min(move_no, per_side) if per_side else move_no,
        "move_limit": per_side,
    }


def hall_slides(battles: list[Battle], *, now: datetime) -> list[list[dict[str, Any]]]:
    """The round's battles that have begun (or wait for their players), by table, in
    slides of ``BATTLES_PER_SLIDE``."""
    lines = [hall_line(b, now=now) for b in battles]
    return [lines[i : i + BATTLES_PER_SLIDE] for i in range(0, len(lines), BATTLES_PER_SLIDE)]
