"""The clock-aligned window of thud_site/limits.py: allowed or not, and how long to wait."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import caches

from thud_site import limits

START = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)  # a minute's first second


@pytest.fixture(autouse=True)
def private_limits(settings):
    settings.CACHES = {
        **settings.CACHES,
        "limits": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "test-thud-site-limits",
        },
    }
    caches["limits"].clear()


def attempt(key="k", *, at: float, limit=2):
    return limits.allow_in_window(
        "test", key, limit=limit, window_s=60, now=START + timedelta(seconds=at)
    )


def test_the_limit_holds_within_a_window_and_says_when_it_ends():
    assert attempt(at=0) == limits.Verdict(allowed=True, retry_after=60)
    assert attempt(at=10.2) == limits.Verdict(allowed=True, retry_after=50)
    assert attempt(at=59.5) == limits.Verdict(allowed=False, retry_after=1)


def test_the_next_window_starts_afresh():
    for at in (0, 1, 2):
        attempt(at=at)
    assert attempt(at=60).allowed


def test_keys_are_counted_apart():
    attempt("a", at=0, limit=1)
    assert not attempt("a", at=1, limit=1).allowed
    assert attempt("b", at=1, limit=1).allowed
