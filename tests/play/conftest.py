from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _throwaway_default_queue(request):
    """E-mail tasks published by these tests go to a queue deleted afterwards."""
    request.getfixturevalue("default_queue")


@pytest.fixture(autouse=True)
def _throwaway_bots_queue(request):
    """The computer's moves queued by these tests go to a queue deleted afterwards."""
    request.getfixturevalue("bots_queue")


@pytest.fixture(autouse=True)
def _throwaway_analysis_queue(request):
    """Analyses asked for by these tests go to a queue deleted afterwards."""
    request.getfixturevalue("analysis_queue")
