"""What the ratings read of casual play: every finished rated casual match as one rating
period for its two players (``ratings.periods``; read through ``PlayConfig.rated_periods``).

A match not played out (cancelled: a no-show) has no ``ended_at`` and is no period;
single casual battles are never rated.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import CasualMatchQuerySet

#: ``(match_id, ended_at, user_a_id, user_b_id, differential_a)``
RatedPeriod = tuple[int, datetime, int, int, int]


def rated_periods(matches: CasualMatchQuerySet, game: str) -> list[RatedPeriod]:
    """Every finished rated casual match of ``game`` among ``matches`` (the
    ``CasualMatch`` rows: passed in, so that ``play.apps`` can call this before the models
    could be imported), ordered by (ended_at, match id)."""
    rows = (
        matches.rated_ended(game)
        .order_by("ended_at", "pk")
        .values_list("pk", "ended_at", "user_a_id", "user_b_id", "differential_a")
    )
    return [(pk, ended, a, b, diff) for pk, ended, a, b, diff in rows if ended is not None]
