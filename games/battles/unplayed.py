"""Which tournament matches were decided without play, for the ratings.

A match is *decided without play* when a referee ended one of its battles before its first
move (``clock.REASON_REFEREE`` at ply 0): a no-show claim settled by the referee, or a battle
stopped before it began. Such a match is never rated, whatever result the tournament
confirms for it. ``tournaments.rating.sources`` (which never imports games) reads this
through ``GamesConfig.matches_without_play``.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.models.battle import Battle
from games.rules import clock


def matches_without_play(match_ids: Iterable[int]) -> set[int]:
    """The ids among ``match_ids`` of matches with a battle a referee ended before any move."""
    return set(
        Battle.objects.filter(
            match_id__in=list(match_ids),
            status=Battle.Status.FINISHED,
            finished_reason=clock.REASON_REFEREE,
            ply=0,
        ).values_list("match_id", flat=True)
    )
