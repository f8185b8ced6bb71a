"""Two real database connections racing for the same match (PostgreSQL only).

Each thread gets its own Django connection; a Barrier releases them together so the
compare-and-set in ``results._claim`` is what decides, not the scheduling.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from tests.factories import MatchFactory, UserFactory
from tournaments.models import Match
from tournaments.results import StaleResultError, enter_result

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks"),
    pytest.mark.timeout(60),
]


def race(*callables):
    """Run each callable in its own thread and connection; return results or exceptions."""
    barrier = threading.Barrier(len(callables), timeout=20)
    outcomes: list[object] = [None] * len(callables)

    def run(i, fn):
        try:
            barrier.wait()
            outcomes[i] = fn()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(callables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads)
    return outcomes


def test_two_referees_entering_at_once_create_exactly_one_version():
    match = MatchFactory()
    ref1, ref2 = UserFactory(), UserFactory()

    def enter(by, values):
        return lambda: enter_result(
            Match.objects.get(pk=match.pk), survivors=values, by=by, expected_lock_version=0
        )

    outcomes = race(enter(ref1, (20, 2, 15, 3)), enter(ref2, (19, 2, 15, 3)))
    stale = [o for o in outcomes if isinstance(o, StaleResultError)]
    assert len(stale) == 1, outcomes
    m = Match.objects.get(pk=match.pk)
    assert m.versions.count() == 1 and m.lock_version == 1
    assert m.result_status == Match.ResultStatus.ENTERED


def _poster(user, path, data):
    def post():
        client = Client()
        client.force_login(user)
        return client.post(path, data, HTTP_HX_REQUEST="true").status_code

    return post


def test_two_referees_posting_at_once_get_one_200_and_one_409():
    match = MatchFactory()
    ref1, ref2 = UserFactory(), UserFactory()
    match.round.tournament.referees.add(ref1, ref2)
    path = reverse("referee_result", args=[match.round.tournament.slug, match.pk])
    base = {"battle1_trolls": 2, "battle2_dwarfs": 15, "battle2_trolls": 3, "lock_version": 0}
    outcomes = race(
        _poster(ref1, path, {**base, "battle1_dwarfs": 20}),
        _poster(ref2, path, {**base, "battle1_dwarfs": 19}),
    )
    assert sorted(outcomes) == [200, 409]
    assert Match.objects.get(pk=match.pk).versions.count() == 1


def test_double_submitted_post_creates_one_version():
    match = MatchFactory()
    ref = UserFactory()
    match.round.tournament.referees.add(ref)
    path = reverse("referee_result", args=[match.round.tournament.slug, match.pk])
    data = {
        "battle1_dwarfs": 20,
        "battle1_trolls": 2,
        "battle2_dwarfs": 15,
        "battle2_trolls": 3,
        "lock_version": 0,
    }
    outcomes = race(_poster(ref, path, data), _poster(ref, path, data))
    assert outcomes == [200, 200]
    m = Match.objects.get(pk=match.pk)
    assert m.versions.count() == 1 and m.lock_version == 1
