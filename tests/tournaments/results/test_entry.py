"""Entering and confirming a result (``tournaments.results.entry``): two people behind
every confirmed result.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from tests.factories import MatchFactory, UserFactory
from tests.tournaments.results.reload import fresh
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.results.entry import confirm_result, enter_result
from tournaments.results.writing import ResultError

pytestmark = pytest.mark.django_db


def test_entry_awaits_confirmation_by_someone_else():
    match, ref1, ref2 = MatchFactory(), UserFactory(), UserFactory()
    v = enter_result(
        match, survivors=(20, 2, 15, 3), by=ref1, expected_lock_version=0, now=timezone.now()
    )
    assert v.status == ResultVersion.Status.PENDING
    assert fresh(match).result_status == Match.ResultStatus.ENTERED
    with pytest.raises(ResultError, match="someone other"):
        confirm_result(match, version_id=v.pk, by=ref1, expected_lock_version=1, now=timezone.now())
    confirmed = confirm_result(
        match, version_id=v.pk, by=ref2, expected_lock_version=1, now=timezone.now()
    )
    m = fresh(match)
    assert confirmed.confirmed_by == ref2
    assert m.result_status == Match.ResultStatus.CONFIRMED
    assert m.confirmed_version_id == v.pk


def test_second_identical_entry_by_another_person_confirms_the_first():
    match, p1, p2 = MatchFactory(), UserFactory(), UserFactory()
    first = enter_result(
        match, survivors=(5, 2, 5, 1), by=p1, expected_lock_version=0, now=timezone.now()
    )
    second = enter_result(
        match, survivors=(5, 2, 5, 1), by=p2, expected_lock_version=1, now=timezone.now()
    )
    assert second.pk == first.pk
    assert fresh(match).result_status == Match.ResultStatus.CONFIRMED
    assert match.versions.count() == 1


def test_disagreeing_entries_dispute_the_match_and_keep_both_versions():
    match, p1, p2, ref = MatchFactory(), UserFactory(), UserFactory(), UserFactory()
    a = enter_result(
        match, survivors=(5, 2, 5, 1), by=p1, expected_lock_version=0, now=timezone.now()
    )
    b = enter_result(
        match, survivors=(6, 2, 5, 1), by=p2, expected_lock_version=1, now=timezone.now()
    )
    assert fresh(match).result_status == Match.ResultStatus.DISPUTED
    assert {v.status for v in match.versions.all()} == {ResultVersion.Status.DISPUTED}
    confirm_result(match, version_id=b.pk, by=ref, expected_lock_version=2, now=timezone.now())
    assert fresh(match).confirmed_version_id == b.pk
    a.refresh_from_db()
    assert a.status == ResultVersion.Status.SUPERSEDED


def test_a_confirmation_is_dated_by_the_time_it_is_given():
    match, ref1, ref2 = MatchFactory(), UserFactory(), UserFactory()
    entered_at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    v = enter_result(
        match, survivors=(20, 2, 15, 3), by=ref1, expected_lock_version=0, now=entered_at
    )
    assert v.confirmed_at is None
    confirmed_at = entered_at + timedelta(minutes=7)
    confirmed = confirm_result(
        match, version_id=v.pk, by=ref2, expected_lock_version=1, now=confirmed_at
    )
    assert confirmed.confirmed_at == confirmed_at
    assert ResultVersion.objects.get(pk=v.pk).confirmed_at == confirmed_at
