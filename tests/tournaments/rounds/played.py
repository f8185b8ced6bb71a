"""Helpers for the round adapters' tests: confirm every match of a round, play a round,
the pairs of a round.
"""

from __future__ import annotations

from django.utils import timezone

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round


def finish(round_: Round, survivors=(10, 1, 5, 2)) -> None:
    """Confirm every real match of a round (A wins by default: 10+8 vs 4+5)."""
    for m in round_.matches.filter(player_b__isnull=False):
        record_final_result(
            m, survivors=survivors, by=None, source=ResultVersion.Source.IMPORT, now=timezone.now()
        )


def paired_ids(round_: Round) -> list[set[int | None]]:
    return [{m.player_a_id, m.player_b_id} for m in round_.matches.all()]


def play(tournament: Tournament) -> Round:
    round_ = publish_round(
        pair_next_round(tournament, by=None, now=timezone.now()), now=timezone.now()
    )
    finish(round_)
    return round_
