from __future__ import annotations

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
