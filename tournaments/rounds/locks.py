"""What the round adapters share: ``RoundError`` and the row locks, with the lifecycle
facts (``tournaments.rules.lifecycle.RoundFacts``) read under them.

Every write locks the tournament row first, so two organisers pressing "pair" at once
cannot create the same round twice, and a round's facts are read with its row locked.
"""

from __future__ import annotations

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.rules import lifecycle


class RoundError(ValueError):
    """A round operation that is refused; the message is shown to the organiser."""


def lock_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def round_facts(round_: Round) -> lifecycle.RoundFacts:
    """The lifecycle facts of ``round_``; call with the round row locked."""
    return lifecycle.RoundFacts(
        number=round_.number,
        status=round_.status,
        has_play=round_.matches.filter(play_started_at__isnull=False).exists()
        or ResultVersion.objects.filter(match__round=round_).exists(),
        is_last=not Round.objects.filter(
            tournament_id=round_.tournament_id, number__gt=round_.number
        ).exists(),
    )
