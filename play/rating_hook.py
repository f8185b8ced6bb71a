"""The one place a rated casual match's end reaches the ratings.

``play.matches.end_match`` calls ``on_rated_match_end(game, now)`` once per rated casual
match, after the transaction that wrote its result (``ended_at``, ``differential_a``)
commits. For now it does nothing: the integrator wires it to the ratings adapter
(``tournaments/ratings/``), which reads the match as a rating period through
``PlayConfig.rated_periods(game)``. Keep it the only such call.
"""

from __future__ import annotations

from datetime import datetime


def on_rated_match_end(game: str, now: datetime) -> None:
    """A rated casual match of ``game`` ended at ``now`` (its period is readable)."""
