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
from django.utils import timezone

from tests.factories import MatchFactory, UserFactory
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.results.corrections import correct_result
from tournaments.results.entry import confirm_result, enter_result
from tournaments.results.writing import ResultError, StaleResultError

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
            Match.objects.get(pk=match.pk),
            survivors=values,
            by=by,
            expected_lock_version=0,
            now=timezone.now(),
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
    base = {"battle1_second": 2, "battle2_first": 15, "battle2_second": 3, "lock_version": 0}
    outcomes = race(
        _poster(ref1, path, {**base, "battle1_first": 20}),
        _poster(ref2, path, {**base, "battle1_first": 19}),
    )
    assert sorted(outcomes) == [200, 409]
    assert Match.objects.get(pk=match.pk).versions.count() == 1


def test_double_submitted_post_creates_one_version():
    match = MatchFactory()
    ref = UserFactory()
    match.round.tournament.referees.add(ref)
    path = reverse("referee_result", args=[match.round.tournament.slug, match.pk])
    data = {
        "battle1_first": 20,
        "battle1_second": 2,
        "battle2_first": 15,
        "battle2_second": 3,
        "lock_version": 0,
    }
    outcomes = race(_poster(ref, path, data), _poster(ref, path, data))
    assert outcomes == [200, 200]
    m = Match.objects.get(pk=match.pk)
    assert m.versions.count() == 1 and m.lock_version == 1


# --- issue 9: 20 writers on one match; exactly one valid outcome, history complete -----


def _history_is_complete(match_id: int) -> Match:
    """Numbers 1..n without gaps, one confirmed version in force, two people behind it."""
    m = Match.objects.select_related("confirmed_version").get(pk=match_id)
    versions = list(m.versions.order_by("number"))
    assert [v.number for v in versions] == list(range(1, len(versions) + 1))
    confirmed = [v for v in versions if v.status == ResultVersion.Status.CONFIRMED]
    assert [v.pk for v in confirmed] == [m.confirmed_version_id]
    for v in versions:
        if v.confirmed_by_id is not None and v.kind != ResultVersion.Kind.DECISION:
            assert v.confirmed_by_id != v.entered_by_id, v
    return m


def test_twenty_referees_correcting_and_confirming_at_once_leave_one_outcome():
    match = MatchFactory()
    first = enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=UserFactory(),
        expected_lock_version=0,
        now=timezone.now(),
    )
    confirm_result(
        match, version_id=first.pk, by=UserFactory(), expected_lock_version=1, now=timezone.now()
    )
    proposer = UserFactory()
    pending = correct_result(
        match,
        survivors=(21, 2, 15, 3),
        by=proposer,
        reason="slip",
        expected_lock_version=2,
        now=timezone.now(),
    )
    seen = Match.objects.get(pk=match.pk).lock_version
    referees = [UserFactory() for _ in range(20)]

    def confirm(by):
        return lambda: confirm_result(
            Match.objects.get(pk=match.pk),
            version_id=pending.pk,
            by=by,
            expected_lock_version=seen,
            now=timezone.now(),
        )

    def correct(by, dwarfs):
        return lambda: correct_result(
            Match.objects.get(pk=match.pk),
            survivors=(dwarfs, 2, 15, 3),
            by=by,
            reason="recount",
            expected_lock_version=seen,
            now=timezone.now(),
        )

    calls = [confirm(r) if i % 2 else correct(r, i) for i, r in enumerate(referees)]
    outcomes = race(*calls)
    winners = [o for o in outcomes if isinstance(o, ResultVersion)]
    assert len(winners) == 1, outcomes
    assert all(isinstance(o, StaleResultError) for o in outcomes if o is not winners[0])
    m = _history_is_complete(match.pk)
    assert m.lock_version == seen + 1
    if winners[0].pk == pending.pk:  # a confirmer won: the correction is in force
        assert m.confirmed_version_id == pending.pk
    else:  # a second correction won: it disputes the first, the old result stays
        assert m.confirmed_version_id == first.pk
        assert winners[0].status == ResultVersion.Status.DISPUTED


def test_twenty_confirmers_without_compare_and_set_confirm_exactly_once():
    match = MatchFactory()
    v = enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=UserFactory(),
        expected_lock_version=0,
        now=timezone.now(),
    )
    referees = [UserFactory() for _ in range(20)]
    outcomes = race(
        *[
            (
                lambda by=r: confirm_result(
                    Match.objects.get(pk=match.pk),
                    version_id=v.pk,
                    by=by,
                    expected_lock_version=None,
                    now=timezone.now(),
                )
            )
            for r in referees
        ]
    )
    confirmed = [o for o in outcomes if isinstance(o, ResultVersion)]
    refused = [o for o in outcomes if isinstance(o, ResultError)]
    assert len(confirmed) == 1 and len(refused) == 19, outcomes
    m = _history_is_complete(match.pk)
    assert m.confirmed_version_id == v.pk and m.versions.count() == 1
    assert m.confirmed_version.confirmed_by_id in {r.pk for r in referees}
