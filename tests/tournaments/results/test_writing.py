"""What every result write shares (``tournaments.results.writing``): the compare-and-set,
the double submit, the values' check.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import MatchFactory, UserFactory
from tests.tournaments.results.reload import fresh
from tournaments.models.rounds import Match
from tournaments.results.entry import enter_result
from tournaments.results.writing import ResultError, StaleResultError, validate_survivors

pytestmark = pytest.mark.django_db


def test_stale_lock_version_is_refused_and_changes_nothing():
    match, ref1, ref2 = MatchFactory(), UserFactory(), UserFactory()
    enter_result(
        match, survivors=(5, 2, 5, 1), by=ref1, expected_lock_version=0, now=timezone.now()
    )
    with pytest.raises(StaleResultError):
        enter_result(
            match, survivors=(9, 2, 5, 1), by=ref2, expected_lock_version=0, now=timezone.now()
        )
    assert match.versions.count() == 1
    assert fresh(match).result_status == Match.ResultStatus.ENTERED


def test_double_submit_creates_one_version():
    match, ref = MatchFactory(), UserFactory()
    v1 = enter_result(
        match, survivors=(5, 2, 5, 1), by=ref, expected_lock_version=0, now=timezone.now()
    )
    v2 = enter_result(
        match, survivors=(5, 2, 5, 1), by=ref, expected_lock_version=0, now=timezone.now()
    )
    assert v1.pk == v2.pk
    assert match.versions.count() == 1


@pytest.mark.parametrize(
    ("survivors", "field"),
    [
        ((33, 0, 0, 0), "Battle 1 surviving dwarfs"),
        ((0, 9, 0, 0), "Battle 1 surviving trolls"),
        ((0, 0, -1, 0), "Battle 2 surviving dwarfs"),
        ((0, 0, 0, "x"), "Battle 2 surviving trolls"),
    ],
)
def test_out_of_range_survivors_are_refused_naming_the_field(survivors, field):
    match = MatchFactory()
    with pytest.raises(ResultError, match=field):
        enter_result(
            match,
            survivors=survivors,
            by=UserFactory(),
            expected_lock_version=0,
            now=timezone.now(),
        )
    assert match.versions.count() == 0
    assert fresh(match).lock_version == 0


def test_validate_survivors_accepts_strings():
    assert validate_survivors(["32", "8", "0", "0"], game="thud").as_tuple() == (32, 8, 0, 0)
