"""The whole suite's set-up: the shared fixtures (``tests/fixtures/``), one fast password
hasher, a private cache and channel namespace per xdist worker, and the two lanes.

``make test`` runs two xdist workers with ``--dist loadgroup``: every ``browser`` or
``clock`` test goes to the group ``serial`` (one worker, one at a time: they start real
processes and measure time), the database and pure tests share out over both workers.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from django.conf import settings

pytest_plugins = [
    "tests.fixtures.browsers",
    "tests.fixtures.processes",
    "tests.fixtures.queues",
]

SERIAL = ("browser", "clock")
# Django's default (PBKDF2, 1,000,000 iterations: ~0.8 s a hash here) is kept for the one
# test of the production hasher, tests/thud_site/test_passwords.py.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_configure(config) -> None:
    # The clock must be tested against a real broker and worker, never an emulation.
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    settings.PASSWORD_HASHERS = FAST_HASHERS
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        # Two workers share one Redis: counts, cached pages and live channels of one
        # worker's battle 1 must never reach the other's.
        prefix = f"{os.environ.get('THUD_CACHE_PREFIX', 'thud')}_{worker}"
        os.environ["THUD_CACHE_PREFIX"] = prefix  # the subprocesses the tests start
        for cache in settings.CACHES.values():
            if "KEY_PREFIX" in cache:
                cache["KEY_PREFIX"] = prefix
        settings.THUD_EVENTS_PREFIX = f"{settings.THUD_EVENTS_PREFIX}{worker}:"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Browser and clock tests into the serial lane (before xdist reads the groups)."""
    for item in items:
        if any(item.get_closest_marker(name) for name in SERIAL):
            item.add_marker(pytest.mark.xdist_group("serial"))


@pytest.fixture(autouse=True)
def _english_unless_asked():
    """Start every test in the default language, whatever the previous test activated.

    LocaleMiddleware activates the request's language in the thread and leaves it there;
    after a request with ``Accept-Language: it`` a later test in the same thread would
    read Italian error messages from functions it calls directly.
    """
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_browser_event_loop(request):
    """Hide the session chromium's event loop from a test that is not a browser test.

    Playwright's sync API (``tests/fixtures/browsers.py``) keeps its loop registered as
    this thread's running loop for as long as it is started; ``asyncio.run()`` in a later
    test on the same worker would refuse to start.
    """
    loop = asyncio._get_running_loop()
    if loop is None or request.node.get_closest_marker("browser"):
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


@pytest.fixture
def password() -> str:
    return "correct-horse-battery"
