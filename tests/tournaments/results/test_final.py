"""Results final on their source's authority (``tournaments.results.final``): the bulk
import ends like one write per match, and refuses what one write would.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from tests.factories import MatchFactory, UserFactory
from tests.tournaments.results.reload import fresh
from tournaments.models.results import ResultVersion
from tournaments.results.entry import enter_result
from tournaments.results.final import record_final_result
from tournaments.results.writing import ResultError

pytestmark = pytest.mark.django_db


def test_bulk_final_results_end_like_one_by_one():
    """record_final_results (CSV import) leaves what record_final_result would."""
    from tests.factories import RoundFactory
    from tournaments.results.final import record_final_results
    from tournaments.rules.result import MatchResult

    round_ = RoundFactory()
    one, two = MatchFactory(round=round_, table=1), MatchFactory(round=round_, table=2)
    bulk_one, bulk_two = MatchFactory(round=round_, table=3), MatchFactory(round=round_, table=4)
    for single, bulk in ((one, bulk_one), (two, bulk_two)):
        for m in (single, bulk):  # a pending entry and an earlier import on each
            enter_result(
                m,
                survivors=(1, 1, 1, 1),
                by=UserFactory(),
                expected_lock_version=0,
                now=timezone.now(),
            )
    record_final_result(one, survivors=(20, 3, 11, 6), by=None, source="import", now=timezone.now())
    record_final_result(two, survivors=(0, 8, 32, 0), by=None, source="import", now=timezone.now())
    record_final_results(
        [
            (bulk_one.pk, MatchResult(20, 3, 11, 6, game="thud")),
            (bulk_two.pk, MatchResult(0, 8, 32, 0, game="thud")),
        ],
        source="import",
        now=timezone.now(),
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
    from tournaments.models.rounds import Round
    from tournaments.results.final import record_final_results
    from tournaments.rules.result import MatchResult

    published = MatchFactory()
    draft = MatchFactory(round=RoundFactory(status=Round.Status.DRAFT))
    with pytest.raises(ResultError, match="not published"):
        record_final_results(
            [
                (published.pk, MatchResult(1, 1, 1, 1, game="thud")),
                (draft.pk, MatchResult(1, 1, 1, 1, game="thud")),
            ],
            source="import",
            now=timezone.now(),
        )
    assert not ResultVersion.objects.exists()


def test_bulk_final_results_refuse_a_bye_or_a_vanished_match_and_write_nothing():
    from tests.factories import RoundFactory
    from tournaments.results.final import record_final_results
    from tournaments.rules.result import MatchResult

    round_ = RoundFactory()
    played = MatchFactory(round=round_, table=1)
    bye = MatchFactory(round=round_, table=2, player_b=None)
    gone = MatchFactory(round=round_, table=3)
    gone_id = gone.pk
    gone.delete()
    for other, message in ((bye.pk, "A bye has no result"), (gone_id, "changed by someone else")):
        with pytest.raises(ResultError, match=message):
            record_final_results(
                [
                    (played.pk, MatchResult(1, 1, 1, 1, game="thud")),
                    (other, MatchResult(1, 1, 1, 1, game="thud")),
                ],
                source="import",
                now=timezone.now(),
            )
    assert not ResultVersion.objects.exists()
    assert fresh(played).lock_version == 0


def test_final_results_are_dated_by_the_time_they_are_given():
    from tests.factories import RoundFactory
    from tournaments.results.final import record_final_results
    from tournaments.rules.result import MatchResult

    at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    round_ = RoundFactory()
    one, bulk = MatchFactory(round=round_, table=1), MatchFactory(round=round_, table=2)
    single = record_final_result(one, survivors=(20, 3, 11, 6), by=None, source="import", now=at)
    later = at + timedelta(hours=1)
    (imported,) = record_final_results(
        [(bulk.pk, MatchResult(0, 8, 32, 0, game="thud"))], source="import", now=later
    )
    assert single.confirmed_at == at
    assert ResultVersion.objects.get(pk=imported.pk).confirmed_at == later
