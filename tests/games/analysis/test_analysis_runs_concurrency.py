"""Parallel requests for analyses by one user (PostgreSQL row locks): the hourly limit
is counted under a lock of the user's row, so parallel requests cannot all pass it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from games.analysis import runs as analysis_runs
from games.analysis.runs import Asked
from games.models.analysis import BattleAnalysis
from tests.factories import UserFactory
from tests.games.analysis_helpers import played_battle
from tests.tournaments.results.test_workflow_concurrency import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks"),
    pytest.mark.timeout(90),
]


def test_parallel_requests_by_one_user_stop_at_the_hourly_limit():
    user = UserFactory()
    extra = 5
    battles = [played_battle(("d F1-F5",)) for _ in range(analysis_runs.PER_HOUR + extra)]
    now = timezone.now()
    outcomes = race(
        *[
            lambda battle=battle: analysis_runs.request_analysis(battle, user, now=now)[1]
            for battle in battles
        ]
    )
    assert outcomes.count(Asked.QUEUED) == analysis_runs.PER_HOUR, outcomes
    assert outcomes.count(Asked.LIMITED) == extra, outcomes
    assert BattleAnalysis.objects.filter(requested_by=user).count() == analysis_runs.PER_HOUR
