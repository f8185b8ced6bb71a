"""What the referee's clock page says besides the clock: the turn that time forfeited,
and the pause while the page was away (``referee_presence.came_back``); and what a
decision would do, asked before the referee ends a battle (``decision_outcome``).

Both are read from the battle as stored (its clock state, its last clock events), so a
page drawn afresh (a reload, a page back from sleep) says the same as one that was there:
the forfeit until the next ply, the pause until the next transition. It names no game's
pieces: the sides come from the game (``presenters.who``).
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.utils import dateformat, timezone
from django.utils.translation import gettext as _

from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock, referee_presence
from games.web import presenters

#: The clock events ``referee_presence.came_back`` tells apart; any other is an action.
_HISTORY: dict[str, str] = {
    ClockEvent.Kind.REFEREE_OFFLINE: referee_presence.AWAY,
    ClockEvent.Kind.RESUMED: referee_presence.BACK,
}


def clock_news(battle: Battle, *, moved: bool = False) -> dict:
    """``forfeit``: "Time ran out: … forfeits the turn." while the last ply was a forfeit
    of an unfinished battle; ``away``: the text of the pause while the page was away and
    ``away_key``, which names that pause (a dismissed notice stays dismissed), else "".
    ``moved``: the row's last write was a move (the panel answering the "moved" press
    that wrote it): a move is no resume, so there is no pause to tell of and nothing is
    read."""
    news = {"forfeit": "", "away": "", "away_key": ""}
    if battle.status in (Battle.Status.PENDING, Battle.Status.FINISHED):
        return news
    side = forfeited(battle.clock_state)
    if side:
        player = presenters.who(battle, side)
        news["forfeit"] = _("Time ran out: %(player)s forfeits the turn.") % {"player": player}
    # Only a write that started a turn (a resume, a move) can be the resume to tell of:
    # the row's last write is its ``updated_at``. A touch, the page's most frequent
    # press after "moved", reads nothing more.
    if moved or battle.status != Battle.Status.RUNNING:
        return news
    if battle.turn_started_at != battle.updated_at:
        return news
    events = battle.clock_events.order_by("-applied_at", "-pk").values_list("applied_at", "kind")
    history = [(at, _HISTORY.get(kind, referee_presence.OTHER)) for at, kind in events[:2]]
    # A move is no clock event: the resume is the last transition only if it was the
    # row's last write.
    history.reverse()
    if history and history[-1][0] != battle.updated_at:
        history.append((battle.updated_at, referee_presence.OTHER))
    away = referee_presence.came_back(history)
    if away is not None:
        since = timezone.localtime(away.since, ZoneInfo(battle.time_zone))
        news["away"] = _(
            "The clock was paused while this page was away (from %(time)s for %(seconds)s s)."
        ) % {"time": dateformat.time_format(since, "H:i:s"), "seconds": away.seconds}
        news["away_key"] = f"{battle.pk}-{int(away.since.timestamp() * 1000)}"
    return news


def forfeited(state: clock.ClockState) -> str:
    """The side whose turn, the last ply, time forfeited; "" if that ply was a move.

    A side's count of forfeits in a row goes back to 0 with its move, so the side that
    played the last ply forfeited it exactly when its count is not 0 (``clock._advance``).
    """
    if state.ply == 0:
        return ""
    first, _second = state.config.sides
    last = clock.other(state, state.side_to_move)
    count = state.forfeits_first if last == first else state.forfeits_second
    return last if count else ""


def decision_outcome(battle: Battle) -> str:
    """What ending ``battle`` now by a decision does, in words, for the question asked
    before it (``battles.referee_decision``: an online battle keeps its score as it
    stands, the higher score winning; an over-the-board one only stops its clock)."""
    if battle.mode != Battle.Mode.ONLINE:
        text = _("The clock stops for good; the result is entered on this page afterwards.")
    else:
        game = battle.rules
        points = game.scores(presenters.state_of(battle))
        names = [(_(info.name), points.get(info.key, 0)) for info in game.sides]
        score = " – ".join(f"{name} {value}" for name, value in names)
        (first, a), (second, b) = names
        if a == b:
            text = _("It ends with the score as it stands: %(score)s, a draw.") % {"score": score}
        else:
            text = _("It ends with the score as it stands: %(score)s; winner: %(side)s.") % {
                "score": score,
                "side": first if a > b else second,
            }
    if battle.match_id is not None and battle.number == 1 and battle.mode == Battle.Mode.ONLINE:
        text += " " + _("Battle 2 then starts.")
    return text
