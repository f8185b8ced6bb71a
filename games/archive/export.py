"""Battles as records and as plain data: the ORM side of :mod:`games.rules.records` and the API.

Every function here reads a fixed number of queries whatever the number of battles or
moves (battles with ``select_related``, moves with one ``prefetch_related``), so the
downloads and the API stay constant-cost.

* ``moves_of(battle)`` is the battle's move list in canonical notation (``None`` for a
  forfeited turn), or ``()`` when any ply lacks notation: an over-the-board battle
  whose moves were not entered has only its result.
* ``result_of(battle)`` is the battle's two result numbers (first side, second side):
  the match's confirmed result when there is one (the official figure, corrections
  included), else the engine's count for a finished online battle, else ``None``.
* Tags and API keys name the sides by the game's stable words (``Game.words``).
"""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from games.battles.finishing import battle_loss
from games.models.battle import Battle
from games.models.history import Move
from games.rules import records
from tournaments.for_games import Round, Tournament, battle_winner

BATTLE_RELATED = (
    "match__round__tournament",
    "match__confirmed_version",
    "first_entry__player",
    "second_entry__player",
)


def with_moves(battles: QuerySet[Battle]) -> QuerySet[Battle]:
    """``battles`` with what a record needs, in two queries."""
    return battles.select_related(*BATTLE_RELATED).prefetch_related(
        Prefetch("moves", queryset=Move.objects.order_by("ply"))
    )


def published_battles(tournament: Tournament) -> QuerySet[Battle]:
    """The battles of the tournament's published and finished rounds (never a draft's),
    in round, table, battle order, with players and the confirmed result."""
    return (
        Battle.objects.filter(
            match__round__tournament=tournament, match__round__in=Round.objects.counted()
        )
        .select_related(*BATTLE_RELATED)
        .order_by("match__round__number", "match__table", "number")
    )


def tournament_battles(tournament: Tournament) -> QuerySet[Battle]:
    """:func:`published_battles` with their moves, for the records file."""
    return with_moves(published_battles(tournament))


def moves_of(battle: Battle) -> tuple[str | None, ...]:
    stored = list(battle.moves.all())
    moves: list[str | None] = []
    for move in stored:
        if move.kind == Move.Kind.FORFEIT:
            moves.append(None)
        elif move.notation:
            moves.append(move.notation)
        else:  # a ply pressed on the referee clock: the move itself is unknown
            return ()
    return tuple(moves)


def result_of(battle: Battle) -> tuple[int, int] | None:
    version = battle.tournament_match().confirmed_version
    if version is not None:
        return version.survivors.battle(battle.number)
    if battle.is_finished and battle.mode == Battle.Mode.ONLINE and battle.board_readable:
        return battle.result_numbers
    return None


def winner_word(battle: Battle, result: tuple[int, int] | None) -> str | None:
    """The API's word for the battle's winner by the one rule (its side's word, "draw"),
    ``None`` without a result: a loss on time or a resignation is the other side's win
    whatever the numbers, else the side with more points wins."""
    if result is None:
        return None
    scale = getattr(battle.rules, "tournament_scale", None)
    w_first, w_second = scale.weights if scale is not None else (1, 1)
    seat = battle_winner((result[0] * w_first, result[1] * w_second), battle_loss(battle))
    return "draw" if seat is None else battle.rules.words[seat]


def tags_of(battle: Battle) -> dict[str, str]:
    match = battle.tournament_match()
    first_entry, second_entry = battle.tournament_entries()
    tournament = match.round.tournament
    result = result_of(battle)
    first, second = side_tags(battle)
    tags = {
        "Event": tournament.name,
        "Round": str(match.round.number),
        "Table": str(match.table),
        "Battle": str(battle.number),
        first: first_entry.player.name,
        second: second_entry.player.name,
        "Variant": tournament.variant,
        "CapturePolicy": battle.capture_policy,
        "Result": f"{result[0]}-{result[1]}" if result else "*",
    }
    if battle.is_finished and battle.finished_reason:
        tags["Termination"] = battle.finished_reason
    tags["Mode"] = battle.mode
    return tags


def side_tags(battle: Battle) -> tuple[str, str]:
    """The record tags naming the battle's two players ("White", "Black")."""
    first, second = battle.rules.words
    return first.capitalize(), second.capitalize()


def record_text(battle: Battle) -> str:
    return records.build_record(tags_of(battle), moves_of(battle), side_tags(battle))


def tournament_record_text(battles: QuerySet[Battle]) -> str:
    return records.build_records([record_text(b) for b in battles])


def battle_data(battle: Battle) -> dict:
    """Language-neutral plain data for the JSON API (English keys)."""
    match = battle.tournament_match()
    first_entry, second_entry = battle.tournament_entries()
    result = result_of(battle)
    first, second = battle.rules.words
    return {
        "id": battle.pk,
        "round": match.round.number,
        "table": match.table,
        "number": battle.number,
        "mode": battle.mode,
        first: {"id": first_entry.player_id, "name": first_entry.player.name},
        second: {"id": second_entry.player_id, "name": second_entry.player.name},
        "status": battle.status,
        "result": {first: result[0], second: result[1]} if result else None,
        "termination": battle.finished_reason if battle.is_finished else None,
        "winner": winner_word(battle, result),
    }
