"""Fixtures of the archive import job's tests: an uploader, and a real Celery worker on this
test's own default queue (a subprocess on the test database, as the Procfile's ``worker``)."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import Group
from django.db import connection

from tests.factories import UserFactory
from tests.processes import default_worker_proc
from tournaments.models.imports import ArchiveImport
from tournaments.permissions.roles import ORGANISERS_GROUP
from tournaments.tasks import run_archive_import


def organiser():
    """A user allowed to create tournaments, so to upload an archive."""
    user = UserFactory()
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return user


def run_queued_imports() -> list[ArchiveImport]:
    """What the default worker would do with every queued job: the task, called directly."""
    jobs = list(ArchiveImport.objects.filter(state=ArchiveImport.State.QUEUED))
    for job in jobs:
        run_archive_import(job.pk)
        job.refresh_from_db()
    return jobs


@pytest.fixture
def default_worker(transactional_db, default_queue, settings, tmp_path):
    """A Celery worker consuming this test's default queue, with the Procfile's options."""
    _client, queue = default_queue
    sd = connection.settings_dict
    env = os.environ | {
        "DATABASE_URL": (
            f"postgres://{sd['USER']}:{sd['PASSWORD'] or ''}@{sd['HOST']}:{sd['PORT']}/{sd['NAME']}"
        ),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "THUD_CELERY_DEFAULT_QUEUE": queue,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
    }
    worker = default_worker_proc(env, queue, tmp_path)
    worker.start()
    yield worker
    worker.stop()
    connection.close()
