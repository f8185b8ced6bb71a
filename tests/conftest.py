from __future__ import annotations

import pytest
from django.conf import settings


def pytest_configure() -> None:
    # The clock must be tested against a real broker and worker, never an emulation.
    assert settings.CELERY_TASK_ALWAYS_EAGER is False


@pytest.fixture
def password() -> str:
    return "correct-horse-battery"


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
