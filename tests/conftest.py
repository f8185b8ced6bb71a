"""The whole suite's set-up: the shared fixtures (``tests/fixtures/``), one fast password
hasher, a private cache and channel namespace per xdist worker, and the two lanes.

``make test`` runs two xdist workers with ``--dist loadgroup`` and two serial lanes, each
run one test at a time on one worker, from the start (``SerialLaneScheduling``): ``clock``
(the timing tests: real workers and beat, outages) and ``site`` (the other tests with real
processes, ``REAL_PROCESSES``: the browser tests on uvicorn with a clock worker). Every
other test, the browser tests on pytest-django's in-process ``live_server`` among them,
goes to whichever worker is free.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from xdist.scheduler import LoadScopeScheduling

pytest_plugins = [
    "tests.fixtures.browsers",
    "tests.fixtures.processes",
    "tests.fixtures.queues",
]

REAL_PROCESSES = {"server", "cluster_factory", "throwaway_redis"}
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


def lane_of(item) -> str | None:
    """``clock`` for the timing tests, ``site`` for the other tests with real processes,
    None for a test any worker may run at any time."""
    if item.get_closest_marker("clock"):
        return "clock"
    if set(getattr(item, "fixturenames", ())) & REAL_PROCESSES:
        return "site"
    return None


def _lane_file(controller_pid: int) -> Path:
    return Path(tempfile.gettempdir()) / f"thud-tests-lanes-{controller_pid}.txt"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items) -> None:
    """A worker writes down the lanes for the controller's scheduler, before it reports
    its collection (the same on every worker)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    path = _lane_file(os.getppid())
    draft = path.with_suffix(f".{worker}")
    lanes = ((lane_of(item), item.nodeid) for item in items)
    draft.write_text("".join(f"{lane}\t{nodeid}\n" for lane, nodeid in lanes if lane))
    draft.replace(path)


class SerialLaneScheduling(LoadScopeScheduling):
    """xdist's loadgroup, for pytest 9: each lane (``clock``, ``site``) one work unit, the
    biggest first, so the two lanes start at once on the two workers and each runs its
    tests one at a time; every other test a unit of its own, handed out a couple at a time
    to whichever worker is free.

    xdist 3.8 groups by rewriting ``item._nodeid``, which pytest 9 no longer reads, so its
    own ``xdist_group`` marks group nothing; the workers name the lanes instead.
    """

    lanes: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self.lanes is None:
            path = _lane_file(os.getpid())
            rows = path.read_text().splitlines() if path.exists() else []
            self.lanes = {test: lane for lane, _, test in (row.partition("\t") for row in rows)}
        return f"lane:{self.lanes[nodeid]}" if nodeid in self.lanes else nodeid


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadgroup":
        return SerialLaneScheduling(config, log)
    return None


def pytest_unconfigure(config) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        _lane_file(os.getpid()).unlink(missing_ok=True)


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


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Hide the session chromium's event loop from a test that is not a browser test.

    Playwright's sync API (``tests/fixtures/browsers.py``) keeps its loop registered as
    this thread's running loop for as long as it is started: ``asyncio.run()`` in a later
    test on the same worker would refuse to start, and Django, whose connections are kept
    per asyncio context while a loop runs, would open the test's transaction on one
    connection and run the test on another (committing what should roll back). So the loop
    is hidden for the whole of such a test, fixtures' set-up and tear-down included.
    """
    loop = asyncio._get_running_loop()
    if loop is None or item.get_closest_marker("browser"):
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio._set_running_loop(loop)


@pytest.fixture
def password() -> str:
    return "correct-horse-battery"
