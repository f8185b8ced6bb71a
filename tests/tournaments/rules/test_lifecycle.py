"""The round lifecycle state machine, as pure functions of RoundFacts (no database)."""

from __future__ import annotations

import pytest

from tournaments.rules import lifecycle
from tournaments.rules.lifecycle import DRAFT, FINISHED, PUBLISHED, LifecycleError, RoundFacts


def facts(status: str, *, play: bool = False, last: bool = True) -> RoundFacts:
    return RoundFacts(number=3, status=status, has_play=play, is_last=last)


def test_a_draft_is_published_and_a_published_round_without_play_unpublished():
    assert lifecycle.publish(facts(DRAFT)) == PUBLISHED
    assert lifecycle.unpublish(facts(PUBLISHED)) == DRAFT


@pytest.mark.parametrize("status", [PUBLISHED, FINISHED])
def test_only_a_draft_can_be_published(status):
    with pytest.raises(LifecycleError, match="Only a draft"):
        lifecycle.publish(facts(status))


def test_unpublish_is_refused_once_play_has_begun_and_says_why():
    with pytest.raises(LifecycleError, match="round 3.*frozen.*Correct a result"):
        lifecycle.unpublish(facts(PUBLISHED, play=True))


def test_unpublish_is_refused_for_drafts_finished_and_earlier_rounds():
    for f in (facts(DRAFT), facts(FINISHED), facts(PUBLISHED, last=False)):
        with pytest.raises(LifecycleError):
            lifecycle.unpublish(f)


def test_only_drafts_without_play_are_editable():
    lifecycle.check_editable(facts(DRAFT))
    for f in (facts(PUBLISHED), facts(FINISHED), facts(DRAFT, play=True)):
        with pytest.raises(LifecycleError):
            lifecycle.check_editable(f)


def test_play_only_in_published_rounds():
    lifecycle.check_playable(facts(PUBLISHED))
    with pytest.raises(LifecycleError, match="not published"):
        lifecycle.check_playable(facts(DRAFT))
    with pytest.raises(LifecycleError, match="finished"):
        lifecycle.check_playable(facts(FINISHED))


def test_results_in_published_and_finished_rounds_never_in_a_draft():
    lifecycle.check_results(facts(PUBLISHED))
    lifecycle.check_results(facts(FINISHED))
    with pytest.raises(LifecycleError, match="not published"):
        lifecycle.check_results(facts(DRAFT))


def test_finish_needs_a_published_round():
    assert lifecycle.finish(facts(PUBLISHED)) == FINISHED
    with pytest.raises(LifecycleError):
        lifecycle.finish(facts(DRAFT))


def test_only_published_and_finished_rounds_are_public():
    assert [lifecycle.is_public(s) for s in lifecycle.STATES] == [False, True, True]


def test_unknown_status_is_a_bug():
    with pytest.raises(ValueError, match="unknown round status"):
        RoundFacts(number=1, status="paused")
