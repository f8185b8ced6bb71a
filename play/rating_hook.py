"""The one place a rated casual match's end reaches the ratings.

``play.matches.end_match`` calls ``on_rated_match_end(game, now)`` once per rated casual
match, after the transaction that wrote its result (``ended_at``, ``differential_a``)
commits. It asks the ratings adapter (``tournaments/rating/``, through the door
``tournaments.for_games.update_ratings``) to apply the periods not applied yet; the adapter
reads the match as a rating period through ``PlayConfig.rated_periods(game)``. Keep it the
only such call.
"""

from __future__ import annotations

from datetime import datetime

from tournaments.for_games import update_ratings


def on_rated_match_end(game: str, now: datetime) -> None:
    """A rated casual match of ``game`` ended at ``now`` (its period is readable)."""
    update_ratings(game, now=now)
