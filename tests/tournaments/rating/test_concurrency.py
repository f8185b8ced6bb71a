"""Two updates of one game racing on real PostgreSQL connections apply a period once."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.factories import tournament_with_players
from tests.tournaments.rating.helpers import LATER, play_round
from tests.tournaments.results.test_workflow_concurrency import race
from tournaments.models.ratings import RatedPeriod, RatingChange
from tournaments.models.rounds import Round
from tournaments.rating.update import Applied, update_ratings

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs advisory locks"),
    pytest.mark.timeout(60),
]


def test_two_updates_racing_apply_the_round_once():
    t = tournament_with_players(4)
    play_round(t, 1)
    # Finished behind the adapter's back, so both updates find it new.
    Round.objects.filter(tournament=t).update(status=Round.Status.FINISHED, finished_at=LATER)
    outcomes = race(
        lambda: update_ratings(t.game, now=LATER), lambda: update_ratings(t.game, now=LATER)
    )
    assert sorted(map(str, outcomes)) == [Applied.INCREMENTAL, Applied.NOTHING], outcomes
    assert RatedPeriod.objects.count() == 1
    assert RatingChange.objects.count() == 4
