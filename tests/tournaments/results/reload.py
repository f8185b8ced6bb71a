"""Reading a match again from the database, as the next request would."""

from __future__ import annotations

from tournaments.models.rounds import Match


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)
