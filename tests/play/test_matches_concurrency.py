"""Parallel ends of one casual match (PostgreSQL row locks): its result and ``ended_at``
are written once and the ratings are told once, whoever comes second. Parallel rated
matches of one pair are counted under a lock of both users' rows, so matches made at once
(accepted challenges) cannot all be rated."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from play import matches, rating_hook
from play.models import CasualMatch
from tests.factories import UserFactory
from tests.play.test_matches import OPENING, play_to_end, rated_match
from tests.tournaments.results.test_workflow_concurrency import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks"),
    pytest.mark.timeout(60),
]


def test_two_ends_of_one_match_at_once_write_it_once_and_tell_the_ratings_once(monkeypatch):
    calls: list[object] = []
    monkeypatch.setattr(rating_hook, "on_rated_match_end", lambda game, now: calls.append(now))
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    play_to_end(m.battle_2_id, now=t0, dwarves_lost=1, moves=OPENING)
    assert calls == [t0]
    # Both battles are over; undo the result as if neither end had been written yet.
    CasualMatch.objects.filter(pk=m.pk).update(status="playing", ended_at=None, differential_a=None)
    calls.clear()
    times = [t0 + timedelta(minutes=1), t0 + timedelta(minutes=2)]

    def end(now):
        with transaction.atomic():
            return matches.end_match(CasualMatch.objects.get(pk=m.pk), now=now)

    outcomes = race(*[lambda now=now: end(now) for now in times])
    assert sorted(outcomes, key=str) == [False, True], outcomes
    m.refresh_from_db()
    assert m.ended_at in times and m.differential_a == 1
    assert calls == [m.ended_at]


def test_parallel_rated_rematches_stop_at_the_limit_per_period():
    alice, bob = UserFactory(), UserFactory()
    now = timezone.now()
    extra = 3
    outcomes = race(
        *[
            lambda: matches.start_match(
                game="thud", first=alice, second=bob, timing="quickfire", days=1, now=now
            )
            for _ in range(matches.RATED_PER_PERIOD + extra)
        ]
    )
    assert all(isinstance(o, CasualMatch) for o in outcomes), outcomes
    rated = list(CasualMatch.objects.values_list("rated", flat=True))
    assert len(rated) == matches.RATED_PER_PERIOD + extra
    assert rated.count(True) == matches.RATED_PER_PERIOD
