"""Helpers for the ratings adapter's tests: a tournament played round by round, and the
stored numbers of a game in one comparable value."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.tournaments.rounds.played import finish
from tournaments.models.ratings import RatedPeriod, RatingChange, SiteRating
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
LATER = T0 + timedelta(days=1)


def play_round(t: Tournament, n: int, survivors=(10, 1, 5, 2)) -> Round:
    """Pair (finishing the previous round at T0 + n hours), publish and confirm round n."""
    at = T0 + timedelta(hours=n)
    round_ = publish_round(pair_next_round(t, by=None, now=at), now=at)
    finish(round_, survivors)
    return round_


def stored(game: str) -> tuple[object, ...]:
    """Every stored number of ``game``: current values, history and applied periods."""
    return (
        sorted(
            SiteRating.objects.filter(game=game).values_list(
                "player_id", "rating", "rd", "volatility", "matches", "last_at"
            )
        ),
        sorted(
            RatingChange.objects.filter(game=game).values_list(
                "player_id", "key_a", "key_b", "before_rating", "after_rating", "after_rd", "games"
            )
        ),
        sorted(RatedPeriod.objects.filter(game=game).values_list("key_a", "key_b", "at")),
    )
