from __future__ import annotations

import pytest

from tests.factories import MatchFactory, UserFactory
from tournaments.models import Match, ResultVersion
from tournaments.results.workflow import (
    ResultError,
    StaleResultError,
    confirm_result,
    correct_result,
    decide_result,
    enter_result,
    record_final_result,
    validate_survivors,
)

pytestmark = pytest.mark.django_db


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def test_entry_awaits_confirmation_by_someone_else():
    match, ref1, ref2 = MatchFactory(), UserFactory(), UserFactory()
    v = enter_result(match, survivors=(20, 2, 15, 3), by=ref1, expected_lock_version=0)
    assert v.status == ResultVersion.Status.PENDING
    assert fresh(match).result_status == Match.ResultStatus.ENTERED
    with pytest.raises(ResultError, match="someone other"):
        confirm_result(match, version_id=v.pk, by=ref1, expected_lock_version=1)
    confirmed = confirm_result(match, version_id=v.pk, by=ref2, expected_lock_version=1)
    m = fresh(match)
    assert confirmed.confirmed_by == ref2
    assert m.result_status == Match.ResultStatus.CONFIRMED
    assert m.confirmed_version_id == v.pk


def test_second_identical_entry_by_another_person_confirms_the_first():
    match, p1, p2 = MatchFactory(), UserFactory(), UserFactory()
    first = enter_result(match, survivors=(5, 2, 5, 1), by=p1, expected_lock_version=0)
    second = enter_result(match, survivors=(5, 2, 5, 1), by=p2, expected_lock_version=1)
    assert second.pk == first.pk
    assert fresh(match).result_status == Match.ResultStatus.CONFIRMED
    assert match.versions.count() == 1


def test_disagreeing_entries_dispute_the_match_and_keep_both_versions():
    match, p1, p2, ref = MatchFactory(), UserFactory(), UserFactory(), UserFactory()
    a = enter_result(match, survivors=(5, 2, 5, 1), by=p1, expected_lock_version=0)
    b = enter_result(match, survivors=(6, 2, 5, 1), by=p2, expected_lock_version=1)
    assert fresh(match).result_status == Match.ResultStatus.DISPUTED
    assert {v.status for v in match.versions.all()} == {ResultVersion.Status.DISPUTED}
    confirm_result(match, version_id=b.pk, by=ref, expected_lock_version=2)
    assert fresh(match).confirmed_version_id == b.pk
    a.refresh_from_db()
    assert a.status == ResultVersion.Status.SUPERSEDED


def test_stale_lock_version_is_refused_and_changes_nothing():
    match, ref1, ref2 = MatchFactory(), UserFactory(), UserFactory()
    enter_result(match, survivors=(5, 2, 5, 1), by=ref1, expected_lock_version=0)
    with pytest.raises(StaleResultError):
        enter_result(match, survivors=(9, 2, 5, 1), by=ref2, expected_lock_version=0)
    assert match.versions.count() == 1
    assert fresh(match).result_status == Match.ResultStatus.ENTERED


def test_double_submit_creates_one_version():
    match, ref = MatchFactory(), UserFactory()
    v1 = enter_result(match, survivors=(5, 2, 5, 1), by=ref, expected_lock_version=0)
    v2 = enter_result(match, survivors=(5, 2, 5, 1), by=ref, expected_lock_version=0)
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
        enter_result(match, survivors=survivors, by=UserFactory(), expected_lock_version=0)
    assert match.versions.count() == 0
    assert fresh(match).lock_version == 0


def test_confirmed_result_needs_a_correction_with_reason_confirmed_by_someone_else():
    match, ref1, ref2, ref3 = MatchFactory(), UserFactory(), UserFactory(), UserFactory()
    v = record_final_result(match, survivors=(5, 2, 5, 1), by=ref1, source="import")
    with pytest.raises(ResultError, match="already confirmed"):
        enter_result(match, survivors=(1, 1, 1, 1), by=ref2, expected_lock_version=1)
    with pytest.raises(ResultError, match="reason"):
        correct_result(match, survivors=(1, 1, 1, 1), by=ref2, reason=" ", expected_lock_version=1)
    c = correct_result(
        match, survivors=(1, 1, 1, 1), by=ref2, reason="slip misread", expected_lock_version=1
    )
    # The correction waits: the confirmed result stays in force until someone else agrees.
    assert c.status == ResultVersion.Status.PENDING
    assert c.kind == ResultVersion.Kind.CORRECTION
    assert fresh(match).confirmed_version_id == v.pk
    with pytest.raises(ResultError, match="someone other"):
        confirm_result(match, version_id=c.pk, by=ref2, expected_lock_version=2)
    confirm_result(match, version_id=c.pk, by=ref3, expected_lock_version=2)
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
        decide_result(match, survivors=(5, 2, 5, 1), by=org, reason="", expected_lock_version=0)
    v = decide_result(
        match,
        survivors=(5, 2, 5, 1),
        by=org,
        reason="players agreed at the desk",
        expected_lock_version=0,
    )
    assert v.status == ResultVersion.Status.CONFIRMED
    assert v.kind == ResultVersion.Kind.DECISION and v.stands_alone
    assert v.entered_by_id == v.confirmed_by_id == org.pk
    assert fresh(match).is_finished


def test_validate_survivors_accepts_strings():
    assert validate_survivors(["32", "8", "0", "0"]).as_tuple() == (32, 8, 0, 0)


def test_bulk_final_results_end_like_one_by_one():
    """record_final_results (CSV import) leaves what record_final_result would."""
    from tests.factories import RoundFactory
    from tournaments.results.value import Survivors
    from tournaments.results.workflow import record_final_results

    round_ = RoundFactory()
    one, two = MatchFactory(round=round_, table=1), MatchFactory(round=round_, table=2)
    bulk_one, bulk_two = MatchFactory(round=round_, table=3), MatchFactory(round=round_, table=4)
    for single, bulk in ((one, bulk_one), (two, bulk_two)):
        for m in (single, bulk):  # a pending entry and an earlier import on each
            enter_result(m, survivors=(1, 1, 1, 1), by=UserFactory(), expected_lock_version=0)
    record_final_result(one, survivors=(20, 3, 11, 6), by=None, source="import")
    record_final_result(two, survivors=(0, 8, 32, 0), by=None, source="import")
    record_final_results(
        [(bulk_one.pk, Survivors(20, 3, 11, 6)), (bulk_two.pk, Survivors(0, 8, 32, 0))],
        source="import",
    )

    def state(m):
        m = fresh(m)
        return (
            m.result_status,
            m.lock_version,
            m.confirmed_version.survivors,
            [(v.number, v.status, v.source) for v in m.versions.all()],
        )

    assert state(bulk_one) == state(one) and state(bulk_two) == state(two)


def test_bulk_final_results_refuse_a_draft_round_and_write_nothing():
    from tests.factories import RoundFactory
    from tournaments.models import Round
    from tournaments.results.value import Survivors
    from tournaments.results.workflow import record_final_results

    published = MatchFactory()
    draft = MatchFactory(round=RoundFactory(status=Round.Status.DRAFT))
    with pytest.raises(ResultError, match="not published"):
        record_final_results(
            [(published.pk, Survivors(1, 1, 1, 1)), (draft.pk, Survivors(1, 1, 1, 1))],
            source="import",
        )
    assert not ResultVersion.objects.exists()


def test_bulk_final_results_refuse_a_bye_or_a_vanished_match_and_write_nothing():
    from tests.factories import RoundFactory
    from tournaments.results.value import Survivors
    from tournaments.results.workflow import record_final_results

    round_ = RoundFactory()
    played = MatchFactory(round=round_, table=1)
    bye = MatchFactory(round=round_, table=2, player_b=None)
    gone = MatchFactory(round=round_, table=3)
    gone_id = gone.pk
    gone.delete()
    for other, message in ((bye.pk, "A bye has no result"), (gone_id, "changed by someone else")):
        with pytest.raises(ResultError, match=message):
            record_final_results(
                [(played.pk, Survivors(1, 1, 1, 1)), (other, Survivors(1, 1, 1, 1))],
                source="import",
            )
    assert not ResultVersion.objects.exists()
    assert fresh(played).lock_version == 0
