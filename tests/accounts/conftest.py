from __future__ import annotations

import pytest

from tests.outbox.fixtures import default_queue  # noqa: F401


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
