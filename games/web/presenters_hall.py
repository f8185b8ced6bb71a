"""The hall screen's live battles: one line per battle of the round, both clocks, the
move counter and the score as it stands (``games.web.views_hall``).

A line holds no moment: its running clock goes out as the moments its think and its turn
end (``clock_face.countdown``), which the screen counts down against the server's time
(``static/js/hall.js``). So a line is the same for every screen at every moment until its
battle changes, and is rendered once per change (``games.web.hall_cache``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

from games.models.battle import Battle
from games.rules import clock_face
from games.web.presenters import shown_points
from games.web.presenters_play import clock_faces

#: Battles per slide at 1080p (two lines each).
BATTLES_PER_SLIDE = 6


#: The moment a clock that never started is drawn at (its faces show no time).
_NEVER = datetime(1970, 1, 1, tzinfo=UTC)


def hall_line(battle: Battle, *, now: datetime | None = None) -> dict[str, Any]:
    """One battle as the audience sees it: table, battle number, the two seats (player,
    side, score, clock) and where the battle stands; an over-the-board battle shows its
    score only once its result is confirmed (``shown_points``).

    Its clock: ``countdown`` (no moment in it) for the hall; and, given ``now`` (a
    player's page, rendered for one reader), ``snap`` and the faces' text as of then."""
    game = battle.rules
    points = shown_points(battle)  # reads the board only for a score it shows
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
    state = battle.clock_state
    # On the hall, the faces' text as at the turn's start, never the moment of rendering:
    # the screen counts the running clock from ``countdown`` as soon as the line is in.
    snap = clock_face.snapshot(state, now or state.turn_started_at or _NEVER)
    faces = clock_faces(seats, viewer=None, snap=snap, think_ms=battle.think_ms)
    for face, seat in zip(faces, seats, strict=True):
        face["points"] = seat["points"]
    per_side = (battle.max_plies + 1) // 2 if battle.max_plies else None
    move_no = battle.ply // 2 + 1
    return {
        "battle": battle,
        "table": battle.match.table if battle.match else 0,
        "faces": faces,
        "countdown": clock_face.countdown(state),
        "snap": snap if now is not None else None,
        "timed": battle.timed and battle.mode == Battle.Mode.ONLINE,
        # Over the board without a confirmed result: no score, a word instead.
        "score_pending": points is None,
        "move_no": min(move_no, per_side) if per_side else move_no,
        "move_limit": per_side,
    }
