"""Fixtures of the referee pages' tests: a match and two referees of its tournament."""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, UserFactory


@pytest.fixture
def match():
    return MatchFactory()


@pytest.fixture
def referee(match):
    user = UserFactory()
    match.round.tournament.referees.add(user)
    return user


@pytest.fixture
def referee2(match):
    user = UserFactory()
    match.round.tournament.referees.add(user)
    return user
