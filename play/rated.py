"""What the ratings read of casual play: every finished rated casual match between two
people as one rating period for its two players (``ratings.periods``; read through
``PlayConfig.rated_periods``).

Bot accounts (``play.bots``) have their own pool, the engine league (``play.league``): a
match with a bot in it never reaches the people's ratings (a bot against a person is never
rated; two bots' rated match counts in the league only). A match left out here that was
applied before is a changed period to the ratings adapter, which then recomputes the game.

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
    """Every finished rated casual match of ``game`` between two people among ``matches`` (the
    ``CasualMatch`` rows: passed in, so that ``play.apps`` can call this before the models
    could be imported), ordered by (ended_at, match id)."""
    rows = (
        matches.rated_ended(game)
        .between_people()
        .order_by("ended_at", "pk")
        .values_list("pk", "ended_at", "user_a_id", "user_b_id", "differential_a")
    )
    return [(pk, ended, a, b, diff) for pk, ended, a, b, diff in rows if ended is not None]
