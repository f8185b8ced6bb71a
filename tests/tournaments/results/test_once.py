"""A result submission's idempotency key (``tournaments.results.once``): applied once,
refused when reused by someone else, for another match or another kind.

The writes here pass ``expected_lock_version=None`` on purpose: without the key, a second
identical write then makes a second version (the double-submit detection of
``writing.claim_unless_repeat`` only acts on a lost compare-and-set), so only the key keeps
these to one.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from tests.factories import MatchFactory, UserFactory
from tests.tournaments.results.test_workflow_concurrency import race
from tournaments.models.results import ResultVersion, SubmissionKey
from tournaments.models.rounds import Match
from tournaments.results.entry import confirm_result, enter_result
from tournaments.results.once import SubmissionKeyError, apply_once, new_key
from tournaments.results.writing import ResultError

KEY = "0b5e4c1e-2a8f-4d5b-9a70-3c1d2e4f5a6b"


def _enter(match, by, values=(20, 2, 15, 3), key=KEY):
    return apply_once(
        key,
        by=by,
        match=match,
        kind=SubmissionKey.Kind.ENTRY,
        write=lambda: enter_result(
            Match.objects.get(pk=match.pk),
            survivors=values,
            by=by,
            expected_lock_version=None,
            now=timezone.now(),
        ),
    )


@pytest.mark.django_db
def test_a_repeated_key_returns_the_first_version_and_writes_nothing():
    match, ref = MatchFactory(), UserFactory()
    first = _enter(match, ref)
    again = _enter(match, ref)
    assert again.pk == first.pk
    assert match.versions.count() == 1
    assert Match.objects.get(pk=match.pk).lock_version == 1
    assert SubmissionKey.objects.get(key=KEY).version_id == first.pk


@pytest.mark.django_db
def test_without_a_key_the_same_write_twice_makes_two_versions():
    """The baseline the key is for: a blind repeat supersedes the first entry."""
    match, ref = MatchFactory(), UserFactory()
    _enter(match, ref, key=None)
    _enter(match, ref, key=None)
    assert match.versions.count() == 2
    assert not SubmissionKey.objects.exists()


@pytest.mark.django_db
def test_a_refused_write_leaves_its_key_unused():
    match, ref = MatchFactory(), UserFactory()
    with pytest.raises(ResultError):
        _enter(match, ref, values=(99, 2, 15, 3))  # out of range
    assert not SubmissionKey.objects.exists()
    assert _enter(match, ref).pk == match.versions.get().pk


@pytest.mark.django_db
def test_a_key_reused_by_someone_else_is_refused_and_changes_nothing():
    match, ref, other = MatchFactory(), UserFactory(), UserFactory()
    _enter(match, ref)
    with pytest.raises(SubmissionKeyError, match="already used"):
        _enter(match, other, values=(1, 1, 1, 1))
    assert match.versions.count() == 1
    assert Match.objects.get(pk=match.pk).lock_version == 1


@pytest.mark.django_db
def test_a_key_reused_for_another_match_is_refused():
    match, ref = MatchFactory(), UserFactory()
    other_match = MatchFactory(round=match.round)
    _enter(match, ref)
    with pytest.raises(SubmissionKeyError):
        _enter(other_match, ref)
    assert not other_match.versions.exists()


@pytest.mark.django_db
def test_a_key_reused_for_a_confirmation_is_refused():
    match, ref, ref2 = MatchFactory(), UserFactory(), UserFactory()
    _enter(match, ref)
    theirs = _enter(match, ref2, values=(1, 1, 1, 1), key=new_key())
    with pytest.raises(SubmissionKeyError):
        apply_once(
            KEY,
            by=ref,
            match=match,
            kind=SubmissionKey.Kind.CONFIRMATION,
            write=lambda: confirm_result(
                match, version_id=theirs.pk, by=ref, expected_lock_version=None, now=timezone.now()
            ),
        )
    theirs.refresh_from_db()
    assert theirs.status == ResultVersion.Status.DISPUTED


def test_new_keys_differ():
    assert len({new_key() for _ in range(100)}) == 100


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks")
@pytest.mark.timeout(60)
def test_two_requests_racing_with_one_key_make_one_version():
    match, ref = MatchFactory(), UserFactory()
    outcomes = race(lambda: _enter(match, ref).pk, lambda: _enter(match, ref).pk)
    assert all(isinstance(o, int) for o in outcomes), outcomes
    assert outcomes[0] == outcomes[1]
    assert Match.objects.get(pk=match.pk).versions.count() == 1
    assert SubmissionKey.objects.get(key=KEY).version_id == outcomes[0]
