"""The one door from ``games`` and ``play`` into ``tournaments``.

``tournaments`` never imports ``games``; ``games`` and ``play`` import only this module
(enforced by ``tests/test_layout.py`` and by ruff's banned-api in ``games/ruff.toml`` and
``play/ruff.toml``). Everything a battle needs from its tournament is named here, as
functions written for games and play (no charts, no forms): the role gates, beginning
play, handing over an engine-verified result, a referee's result entry (its fields, its
check and the keyed entry; games' form shows them), the counting of results by side (and
which battles count for the site), the refs of the tournament archive's sections and
its schema loader, and the registration of the apps' contributions
(``tournaments.contributions``: archive sections, matches without play, rated casual
matches). (The games offer their result scales on their ``AppConfig``,
``GamesConfig.game_scales``, without importing this app; the site's SVG chart primitives
are ``thud_site.svg`` and ``thud_site.palette``, no app's.)
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from tournaments.archive.choices import load_schema
from tournaments.archive.sections import (
    DocumentIndex,
    ExportRefs,
    ImportRefs,
    iso,
    parse_time,
    time_of,
)
from tournaments.contributions import register as register_contributions
from tournaments.events.signals import attendance_changed, round_published
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.models.wording import say
from tournaments.permissions.match_gates import (
    access_match_for_battle_start,
    access_match_id_for_referee,
    access_match_public,
)
from tournaments.permissions.roles import (
    appointed,
    can_referee,
    can_see_round,
    player_entry_in_match,
    remember_appointments,
)
from tournaments.permissions.tournament_gates import (
    access_round_id_for_referee,
    access_tournament_for_referee,
    access_tournament_public,
)
from tournaments.rating.update import update_ratings
from tournaments.reports.side_counts import SideCounts, count_by_side
from tournaments.results.fields import ResultField, match_names, result_fields
from tournaments.results.final import record_final_result
from tournaments.results.keyed import enter_keyed_result, key_error
from tournaments.results.once import new_key
from tournaments.results.writing import ResultError, game_of
from tournaments.rounds.hall import current_round, hall_fingerprint
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import begin_play
from tournaments.rules.result import MatchResult, MatchResultError
from tournaments.standings.decision import (
    LOST_ON_TIME,
    RESIGNED,
    Loss,
    MatchDecision,
    battle_winner,
    decide,
)
from tournaments.standings.scoring import score

if TYPE_CHECKING:
    from tournaments.permissions.roles import AnyUser  # noqa: F401 (for games.permissions)

log = logging.getLogger(__name__)

__all__ = [
    # The one place games and play register their contributions (tournaments.contributions).
    "register_contributions",
    "attendance_changed",
    "DocumentIndex",
    "ExportRefs",
    "ImportRefs",
    "iso",
    "load_schema",
    "parse_time",
    "time_of",
    "Entry",
    "Match",
    "ResultError",
    "Round",
    "RoundError",
    "SideCounts",
    "Tournament",
    "access_match_for_battle_start",
    "access_match_id_for_referee",
    "access_match_public",
    "access_round_id_for_referee",
    "access_tournament_for_referee",
    "access_tournament_public",
    "appointed",
    "battles_of_copies",
    "begin_play",
    "can_referee",
    "can_see_round",
    "count_by_side",
    "current_round",
    "enter_referee_result",
    "hall_fingerprint",
    "match_differential",
    "match_decision",
    "LOST_ON_TIME",
    "RESIGNED",
    "Loss",
    "MatchDecision",
    "battle_winner",
    "player_entry_in_match",
    "record_engine_result",
    "referee_entry_errors",
    "referee_result_fields",
    "remember_appointments",
    "round_published",
    "players_of_round",
    "update_ratings",
]


def battles_of_copies() -> Q:
    """A filter of ``Battle`` rows: those of a copy, an import of a tournament the site
    already holds (``tournaments.archive.copies``), counted in no site statistic."""
    return Q(match__round__tournament__copy_of__isnull=False)


def players_of_round(round_id: int) -> list[tuple[int, int, str]]:
    """``(user id, match id, opponent's name)`` for every player of the round's matches
    who has an account (byes have no opponent and are left out)."""
    rows = []
    matches = Match.objects.filter(round_id=round_id, player_b__isnull=False).select_related(
        "player_a__player", "player_b__player"
    )
    for m in matches:
        if m.player_a is None or m.player_b is None:
            continue
        a, b = m.player_a.player, m.player_b.player
        if a.user_id is not None:
            rows.append((a.user_id, m.pk, b.name))
        if b.user_id is not None:
            rows.append((b.user_id, m.pk, a.name))
    return rows


def record_engine_result(
    match: Match,
    *,
    battle_1: tuple[int, int],
    battle_2: tuple[int, int],
    game: str,
    players: tuple[int, int],
    now: datetime,
) -> bool:
    """Record the engine-verified result of a match both of whose battles were played
    online. ``battle_1`` and ``battle_2`` are each battle's result numbers (first side,
    second side). A refusal (the pairing changed, the round was reopened) is logged and
    leaves the result to the referees; it must not undo the battles' end. True when
    recorded."""
    result = MatchResult.from_battles(battle_1, battle_2, game=game)
    try:
        with transaction.atomic():
            record_final_result(
                match,
                survivors=result,
                by=None,
                source=ResultVersion.Source.ENGINE,
                players=players,
                now=now,
            )
    except ResultError:
        log.warning("online result of match %s not recorded", match.pk, exc_info=True)
        return False
    return True


def match_differential(battle_1: tuple[int, int], battle_2: tuple[int, int], *, game: str) -> int:
    """Player A's differential over a two-battle match (A has the first side in battle 1),
    from each battle's result numbers, scored as a tournament match is
    (``MatchResult.from_battles``, ``standings.scoring.score``): a casual match's result.

    In Thud (the first side scores 1 point a piece left, the second 4): A keeps 30 in
    battle 1 and 8 in battle 2 (30 + 32 = 62 points), B 2 and 12 (8 + 12 = 20):

    >>> match_differential((30, 2), (12, 8), game="thud")
    42
    """
    return score(MatchResult.from_battles(battle_1, battle_2, game=game)).differential


def match_decision(
    battle_1: tuple[int, int],
    battle_2: tuple[int, int],
    *,
    game: str,
    losses: tuple[Loss | None, Loss | None] = (None, None),
) -> MatchDecision:
    """Who won a two-battle match and how (``standings.decision``: the summed points, but
    a player who lost a battle on time or by resigning loses the match), from each
    battle's result numbers and how each was lost, if it was."""
    return decide(MatchResult.from_battles(battle_1, battle_2, game=game), losses)


def referee_result_fields(match: Match) -> tuple[list[ResultField], dict[str, object]]:
    """The result fields of the match's game (each a ``name``, a ``label`` naming the
    player whose number it is, and a ``limit``, the least being 0), in the result's order,
    and the form's initial values: the numbers stored last (the result page is shown
    again after an entry, not emptied) and a fresh submission ``key``."""
    latest = match.versions.exclude(status=ResultVersion.Status.SUPERSEDED).last()
    initial: dict[str, object] = {"key": new_key()}
    if latest is not None:
        initial.update(latest.survivors.as_dict())
    return result_fields(game_of(match), match_names(match)), initial


def referee_entry_errors(
    match: Match, numbers: Sequence[int | None], *, key: str
) -> list[tuple[str | None, str]]:
    """What is wrong with a referee's entry of the match's result: ``(field, message)``
    pairs, the field ``None`` for the form as a whole; none when it may be entered. The
    numbers (in the order of ``referee_result_fields``) are checked as a result of the
    match's game only when all four are given (a missing one is its field's error), the
    submission key always."""
    errors: list[tuple[str | None, str]] = []
    if all(number is not None for number in numbers):
        try:
            MatchResult.parse(list(numbers), game=game_of(match))
        except MatchResultError as exc:
            errors.append((exc.field, say(exc)))
    problem = key_error(key)
    if problem is not None:
        errors.append((None, problem))
    return errors


def enter_referee_result(
    match: Match,
    *,
    key: str,
    numbers: Sequence[int],
    by: User,
    players: tuple[int, int],
    now: datetime,
) -> ResultVersion:
    """Enter the referee's numbers (free of ``referee_entry_errors``) for a second person
    to confirm, once per submission key; raises ``ResultError`` when the workflow refuses
    it (already confirmed, the pairing changed, the key was used for something else)."""
    return enter_keyed_result(
        match,
        key=key,
        survivors=numbers,
        by=by,
        expected_lock_version=match.lock_version,
        players=players,
        now=now,
    )[0]
