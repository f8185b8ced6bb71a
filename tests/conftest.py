from __future__ import annotations

import pytest
from django.conf import settings


def pytest_configure() -> None:
    # The clock must be tested against a real broker and worker, never an emulation.
    assert settings.CELERY_TASK_ALWAYS_EAGER is False


@pytest.fixture
def password() -> str:
    return "correct-horse-battery"
