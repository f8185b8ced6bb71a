"""Fixtures shared by the account tests (login, registration, claims)."""

from __future__ import annotations

import os
import uuid

import pytest


@pytest.fixture
def local_cache(settings):
    # A private in-memory cache: rate-limit counts never leak between tests or runs.
    settings.CACHES = {
        name: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-accounts-{name}",
        }
        for name in ("default", "limits")
    }
    from django.core.cache import caches

    for name in ("default", "limits"):
        caches[name].clear()


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
