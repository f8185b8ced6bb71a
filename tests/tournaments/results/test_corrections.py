"""Corrections and the organiser's final decision (``tournaments.results.corrections``)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import MatchFactory, UserFactory
from tests.tournaments.results.reload import fresh
from tournaments.models.results import ResultVersion
from tournaments.results.corrections import correct_result, decide_result
from tournaments.results.entry import confirm_result, enter_result
from tournaments.results.final import record_final_result
from tournaments.results.writing import ResultError

pytestmark = pytest.mark.django_db


def test_confirmed_result_needs_a_correction_with_reason_confirmed_by_someone_else():
    match, ref1, ref2, ref3 = MatchFactory(), UserFactory(), UserFactory(), UserFactory()
    v = record_final_result(
        match, survivors=(5, 2, 5, 1), by=ref1, source="import", now=timezone.now()
    )
    with pytest.raises(ResultError, match="already confirmed"):
        enter_result(
            match, survivors=(1, 1, 1, 1), by=ref2, expected_lock_version=1, now=timezone.now()
        )
    with pytest.raises(ResultError, match="reason"):
        correct_result(
            match,
            survivors=(1, 1, 1, 1),
            by=ref2,
            reason=" ",
            expected_lock_version=1,
            now=timezone.now(),
        )
    c = correct_result(
        match,
        survivors=(1, 1, 1, 1),
        by=ref2,
        reason="slip misread",
        expected_lock_version=1,
        now=timezone.now(),
    )
    # The correction waits: the confirmed result stays in force until someone else agrees.
    assert c.status == ResultVersion.Status.PENDING
    assert c.kind == ResultVersion.Kind.CORRECTION
    assert fresh(match).confirmed_version_id == v.pk
    with pytest.raises(ResultError, match="someone other"):
        confirm_result(match, version_id=c.pk, by=ref2, expected_lock_version=2, now=timezone.now())
    confirm_result(match, version_id=c.pk, by=ref3, expected_lock_version=2, now=timezone.now())
    m = fresh(match)
    assert m.confirmed_version_id == c.pk
    c.refresh_from_db()
    assert (c.entered_by_id, c.confirmed_by_id) == (ref2.pk, ref3.pk)
    v.refresh_from_db()
    assert v.status == ResultVersion.Status.SUPERSEDED
    assert [x.number for x in m.versions.all()] == [1, 2]


def test_organisers_final_decision_stands_alone_with_a_reason_and_is_marked():
    match, org = MatchFactory(), UserFactory()
    with pytest.raises(ResultError, match="reason"):
        decide_result(
            match,
            survivors=(5, 2, 5, 1),
            by=org,
            reason="",
            expected_lock_version=0,
            now=timezone.now(),
        )
    v = decide_result(
        match,
        survivors=(5, 2, 5, 1),
        by=org,
        reason="players agreed at the desk",
        expected_lock_version=0,
        now=timezone.now(),
    )
    assert v.status == ResultVersion.Status.CONFIRMED
    assert v.kind == ResultVersion.Kind.DECISION and v.stands_alone
    assert v.entered_by_id == v.confirmed_by_id == org.pk
    assert fresh(match).is_finished
