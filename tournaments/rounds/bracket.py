"""The adapter between the database and the pure knockout stage (``tournaments.pairing.elimination``).

Reads the knockout-stage rounds in a constant number of queries (the rounds, their
matches with confirmed results, the seeded entries) and turns them into a
``elimination.Bracket``. ``tournaments.rounds.draw.pair_next_round`` writes the rounds it plans.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.pairing import elimination
from tournaments.standings.scoring import score

KNOCKOUT_STAGES = (elimination.KNOCKOUT, elimination.PLAYOFF)


def knockout_phase(tournament: Tournament, main_rounds: int) -> bool:
    """Whether the next round belongs to the knockout: always for single elimination;
    for a Swiss top cut once ``main_rounds`` (the Swiss rounds paired) reach the total."""
    if tournament.format == Tournament.Format.SINGLE_ELIMINATION:
        return True
    return tournament.top_cut > 0 and main_rounds >= tournament.rounds


def _differential(match: Match) -> int | None:
    if match.confirmed_version is None:
        return None
    return score(match.confirmed_version.survivors).differential


@dataclass
class LoadedBracket:
    bracket: elimination.Bracket
    seeds: dict[int, int]  # entry id -> knockout seed
    entries: dict[int, Entry]
    matches: dict[int, Match]
    rounds: list[Round]


def load_bracket(tournament: Tournament, *, public_only: bool = True) -> LoadedBracket:
    """The knockout bracket of ``tournament``: three queries whatever its size."""
    rounds_qs = tournament.round_set.filter(stage__in=KNOCKOUT_STAGES).order_by("number")
    if public_only:
        rounds_qs = rounds_qs.counted()
    rounds_ = list(rounds_qs)
    matches = list(
        Match.objects.filter(round__in=[r.pk for r in rounds_])
        .select_related("confirmed_version")
        .order_by("round__number", "table")
    )
    players = {m.player_a_id for m in matches} | {m.player_b_id for m in matches if m.player_b_id}
    entries = {
        e.pk: e
        for e in Entry.objects.filter(tournament=tournament)
        .filter(Q(knockout_seed__isnull=False) | Q(pk__in=players))
        .select_related("player")
    }
    # Brackets paired before knockout seeds were stored fall back on the entry seed.
    seeds = {
        pk: e.knockout_seed if e.knockout_seed is not None else 1000 + e.seed
        for pk, e in entries.items()
    }
    numbers = {r.pk: r.number for r in rounds_}
    by_round: dict[int, list[elimination.Game]] = {r.pk: [] for r in rounds_}
    for m in matches:
        by_round[m.round_id].append(
            elimination.Game(
                numbers[m.round_id], m.player_a_id, m.player_b_id, _differential(m), m.pk
            )
        )
    stage_rounds = [
        elimination.StageRound(r.number, r.stage, tuple(by_round[r.pk])) for r in rounds_
    ]
    bracket = elimination.build_bracket(stage_rounds, seeds, tournament.knockout_draw_rule)
    return LoadedBracket(bracket, seeds, entries, {m.pk: m for m in matches}, rounds_)
