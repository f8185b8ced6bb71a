"""Fixtures for battle and clock tests: a match with scaled clocks (``make_match`` in
``tests/factories.py``); the real-process fixtures are in ``tests/fixtures/processes.py``."""

from __future__ import annotations

import pytest

from tests.factories import make_match
from tournaments.models.rounds import Match


@pytest.fixture
def match(db) -> Match:
    return make_match()[0]
