"""Finishing a battle: when the game ends play, the final scores, battle 2 of a match
(waiting for both players again, as battle 1 did), and the hand-off of a finished match
to its tournament (``tournaments.for_games``).

A casual battle ends and keeps its scores, then tells ``play`` (``casual_battle_finished``,
in the same transaction: a casual match's battle 2 follows from it); an over-the-board
battle's result is entered by the referee, so nothing here touches it.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games.battles import joining
from games.events import publish
from games.events.signals import casual_battle_finished
from games.models.battle import Battle
from games.rules import clock
from games.rules.interface import side_keys
from tournaments.for_games import (
    LOST_ON_TIME,
    RESIGNED,
    Loss,
    MatchDecision,
    battle_winner,
    match_decision,
    record_engine_result,
)


def check_end(battle: Battle, state: clock.ClockState, position) -> clock.ClockState:
    """Finish the clock when the game says play is over (e.g. no legal move)."""
    if state.status == clock.RUNNING:
        outcome = battle.rules.outcome(position)
        if outcome is not None:
            return clock.finish(state, outcome.reason)
    return state


#: How a battle can be lost whatever its score: the clock's reason -> the rule's word.
LOSSES = {clock.REASON_TIME: LOST_ON_TIME, clock.REASON_RESIGNED: RESIGNED}


def loss_of(game, *, finished_reason: str, side_to_move: str) -> Loss | None:
    """How a finished battle was lost other than by its score (on time, resigned: the side
    to move, as the clock leaves it, is the loser), else ``None``."""
    how = LOSSES.get(finished_reason)
    if how is None or side_to_move not in side_keys(game):
        return None
    return Loss(side_keys(game).index(side_to_move), how)


def winner_of(game, scores: dict, loss: Loss | None) -> str:
    """The winning side key by the one rule (``tournaments.for_games.battle_winner``),
    "" for a draw."""
    keys = side_keys(game)
    seat = battle_winner((scores.get(keys[0], 0), scores.get(keys[1], 0)), loss)
    return "" if seat is None else keys[seat]


def _final_scores(battle: Battle) -> dict:
    """The finished battle's scores and winner by side key (online battles only): lost on
    time or resigned, the other side wins whatever the scores say."""
    game = battle.rules
    position = game.deserialise(battle.board) if battle.board else game.initial_state()
    scores = game.scores(position)
    loss = loss_of(game, finished_reason=battle.finished_reason, side_to_move=battle.side_to_move)
    return {"scores": scores, "winner": winner_of(game, scores, loss)}


def battle_loss(battle: Battle) -> Loss | None:
    """The stored battle's loss on time or by resignation (an online battle's only)."""
    if battle.mode != Battle.Mode.ONLINE or not battle.is_finished:
        return None
    return loss_of(
        battle.rules, finished_reason=battle.finished_reason, side_to_move=battle.side_to_move
    )


def decide_match(b1: Battle, b2: Battle) -> MatchDecision:
    """Who won the two battles' match and how, by the one rule."""
    return match_decision(
        b1.result_numbers,
        b2.result_numbers,
        game=b1.game,
        losses=(battle_loss(b1), battle_loss(b2)),
    )


def finished(battle: Battle, *, now: datetime) -> None:
    """Store the scores; battle 1 of an online match starts battle 2; both done
    records the match result. A casual battle tells ``play`` it ended. An offer to end
    it that still stands ends with it."""
    if battle.end_offered_by:
        Battle.objects.filter(pk=battle.pk).update(end_offered_by="")
        battle.end_offered_by = ""  # what is published on commit (``store.write``)
    if battle.mode != Battle.Mode.ONLINE:
        return
    result = _final_scores(battle)
    Battle.objects.filter(pk=battle.pk).update(**result)
    for name, value in result.items():
        setattr(battle, name, value)
    _tell_finished(battle)
    match_id = battle.match_id
    if match_id is None:  # a casual battle
        casual_battle_finished.send(sender=Battle, battle=battle, now=now)
        return
    battles = {b.number: b for b in Battle.objects.filter(match_id=match_id)}
    if battle.number == 1 and 2 in battles and battles[2].status == Battle.Status.PENDING:
        _open_second(battles[2], now=now)
        return
    if all(b.status == Battle.Status.FINISHED for b in battles.values()) and len(battles) == 2:
        record_online_result(battle.match, battles[1], battles[2], now=now)


def _tell_finished(battle: Battle) -> None:
    """Tell the battle's two players it ended, after commit, on their own channels."""
    notices = [
        (user, joining.notice(battle, joining.FINISHED, by=""))
        for user in joining.seat_users(battle)
        if user is not None
    ]
    if notices:
        transaction.on_commit(lambda: publish.publish_notices(notices))


def _open_second(second: Battle, *, now: datetime) -> None:
    """Battle 2 follows battle 1 as battle 1 did: a timed one waits for both players to
    join it (they are told at once, on whatever page they are), an untimed one starts."""
    second = joining.open_for_players(second.pk, side=None, now=now)
    tell_next(second)


def tell_next(second: Battle) -> None:
    """Tell both players of a battle 2 that waits for them, at once, on whatever page
    they are (after commit); one that does not wait (untimed) needs no call."""
    if not second.awaits_players:
        return
    users = joining.seat_users(second)
    notices = [
        (user, joining.notice(second, joining.NEXT, by=joining.seat_name(second, 1 - seat)))
        for seat, user in enumerate(users)
        if user is not None
    ]
    if notices:
        transaction.on_commit(lambda: publish.publish_notices(notices))


def record_online_result(match, b1: Battle, b2: Battle, *, now: datetime) -> None:
    """Hand the engine-verified result to the tournament, for the players who played it
    (a refusal is logged there and leaves the result to the referees)."""
    record_engine_result(
        match,
        battle_1=b1.result_numbers,
        battle_2=b2.result_numbers,
        game=b1.game,
        players=b1.match_players,
        now=now,
    )
