"""Fixtures of the account tests: a private cache for the rate limits (or the real Redis,
for races), and a throwaway queue for the e-mail they send."""

from __future__ import annotations

import os
import uuid

import pytest


@pytest.fixture(autouse=True)
def private_limits(settings):
    """A private in-memory cache: counts never leak between tests or runs."""
    settings.CACHES = {
        name: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-accounts-reset-{name}",
        }
        for name in ("default", "limits")
    }
    from django.core.cache import caches

    for name in ("default", "limits"):
        caches[name].clear()


@pytest.fixture(autouse=True)
def _throwaway_default_queue(request):
    """E-mail tasks published by these tests (after a real commit) go to a queue deleted
    afterwards, never to the default queue a real worker may consume."""
    request.getfixturevalue("default_queue")


@pytest.fixture
def redis_cache(settings):
    # The real Redis cache, so a race is against Redis's INCR, not a lock in LocMemCache.
    # A fresh key prefix per test keeps counts apart; the keys expire with the window.
    prefix = os.environ.get("THUD_CACHE_PREFIX", "thud")
    settings.CACHES = {
        name: {
            "BACKEND": "thud_site.cache.ResilientRedisCache",
            "LOCATION": settings.REDIS_URL,
            "KEY_PREFIX": f"{prefix}-test-accounts-{uuid.uuid4().hex}",
            "OPTIONS": {"fallback": "local" if name == "limits" else "miss"},
        }
        for name in ("default", "limits")
    }
