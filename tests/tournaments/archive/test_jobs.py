"""An uploaded archive is imported by a job on the default queue, never in the request
(issue 40): the upload stores the file and answers at once; the job imports it once,
everything or nothing; its page follows it for its uploader alone; a job whose worker
stopped says so and may be sent again.

The job is run by calling the task function (``run_queued_imports``), except in the test
marked ``clock``, where a real Celery worker on this test's default queue runs it.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory, tournament_with_players
from tests.processes import wait_for
from tests.tournaments.archive.conftest import organiser, run_queued_imports
from tournaments.archive import jobs
from tournaments.archive.document import build_document, dumps
from tournaments.archive.jobs import STUCK_AFTER
from tournaments.archive.validation import read_archive
from tournaments.models.imports import ArchiveImport
from tournaments.models.people import Player
from tournaments.models.tournament import Entry, Tournament
from tournaments.tasks import publish_archive_import, run_archive_import

pytestmark = pytest.mark.django_db
State = ArchiveImport.State


class Rollback(Exception):
    pass


@pytest.fixture(scope="module")
def archive_text(django_db_setup, django_db_blocker) -> str:
    """The archive of a four-player tournament, which is then rolled back."""
    with django_db_blocker.unblock():
        try:
            with transaction.atomic():
                t = tournament_with_players(4, slug="job-cup", name="Job Cup")
                text = dumps(build_document(t, now=timezone.now()))
                raise Rollback
        except Rollback:
            pass
    return text


def upload(client, text: str | bytes, **data):
    file = io.BytesIO(text.encode() if isinstance(text, str) else text)
    file.name = "archive.json"
    return client.post(reverse("organiser_import_archive"), {"file": file, **data})


def counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in (Tournament, Player, Entry)}


def page(job: ArchiveImport) -> str:
    return reverse("organiser_archive_import", args=[job.pk])


def test_an_upload_is_stored_as_a_queued_job_and_sent_to_the_default_queue_unread(
    archive_text, client, default_queue, django_capture_on_commit_callbacks
):
    redis, queue = default_queue
    uploader = organiser()
    client.force_login(uploader)

    with django_capture_on_commit_callbacks(execute=True) as published:
        response = upload(client, archive_text, slug="later")

    job = ArchiveImport.objects.get()
    assert response.status_code == 302 and response["Location"] == page(job)
    assert (job.state, job.uploaded_by, job.slug) == (State.QUEUED, uploader, "later")
    assert bytes(job.data) == archive_text.encode() and job.size == len(archive_text.encode())
    assert not Tournament.objects.exists()  # nothing read, nothing written
    assert len(published) == 1 and redis.llen(queue) == 1


def test_the_jobs_page_follows_it_until_it_links_to_the_tournament(archive_text, client):
    client.force_login(organiser())
    upload(client, archive_text, slug="on-the-web")
    job = ArchiveImport.objects.get()

    waiting = client.get(page(job)).content.decode()
    fragment = client.get(page(job), HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-trigger="every 2s"' in waiting and "Step 1 of 3" in waiting
    assert "<html" not in fragment and 'id="import-job"' in fragment

    [job] = run_queued_imports()

    assert job.state == State.DONE and job.tournament == Tournament.objects.get(slug="on-the-web")
    assert bytes(job.data) == b""  # the file is not kept once imported
    done = client.get(page(job)).content.decode()
    assert reverse("organiser_dashboard", args=["on-the-web"]) in done
    assert "Tournament Job Cup imported." in done and "hx-trigger" not in done


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{ not json", "The file is not valid JSON (line 1, column 3"),
        (
            '{"format": "thud-tournament-archive", "version": 1, "x": "\\u0000"}',
            "x: a text holds a NUL character.",
        ),
        (b"\xff\xfe", "The file is not UTF-8 text."),
    ],
)
def test_a_hostile_file_ends_refused_with_its_problem_and_nothing_written(
    text, problem, archive_text, client
):
    client.force_login(organiser())
    before = counts()

    upload(client, text)
    [job] = run_queued_imports()

    assert job.state == State.FAILED and problem in job.error
    assert bytes(job.data) == b"" and job.tournament is None
    assert counts() == before
    shown = client.get(page(job)).content.decode()
    assert "Nothing was imported: " + problem in shown
    assert "hx-trigger" not in shown


def test_a_refusal_while_writing_rolls_back_and_is_shown(archive_text, client):
    tournament_with_players(1, slug="job-cup")
    client.force_login(organiser())
    before = counts()

    upload(client, archive_text)
    [job] = run_queued_imports()

    assert job.state == State.FAILED and "job-cup exists here already" in job.error
    assert counts() == before


def test_another_user_cannot_see_the_job_nor_send_it_again(archive_text, client):
    client.force_login(organiser())
    upload(client, archive_text)
    job = ArchiveImport.objects.get()
    resend = reverse("organiser_resend_archive_import", args=[job.pk])

    client.force_login(organiser())
    assert client.get(page(job)).status_code == 404
    assert client.post(resend).status_code == 404
    client.force_login(UserFactory(is_superuser=True))
    assert client.get(page(job)).status_code == 200
    client.logout()
    assert client.get(page(job)).status_code == 302  # to the log-in page


def test_a_duplicated_task_imports_once(archive_text, client):
    client.force_login(organiser())
    upload(client, archive_text)
    job = ArchiveImport.objects.get()

    first = run_archive_import(job.pk)
    second = run_archive_import(job.pk)

    assert first == "imported job-cup" and second == "not queued: nothing to do"
    assert Tournament.objects.count() == 1
    job.refresh_from_db()
    assert (job.state, job.attempt) == (State.DONE, 1)


@pytest.mark.parametrize("state", [State.QUEUED, State.RUNNING])
def test_a_job_stopped_on_the_way_says_so_and_may_be_sent_again(
    state, archive_text, client, default_queue, django_capture_on_commit_callbacks
):
    client.force_login(organiser())
    upload(client, archive_text)
    job = ArchiveImport.objects.get()
    resend = reverse("organiser_resend_archive_import", args=[job.pk])
    # Not stopped yet: not sent again.
    assert client.post(resend, follow=True).content.decode().count("cannot be sent again") == 1
    long_ago = timezone.now() - STUCK_AFTER - timedelta(seconds=1)
    # As its worker died (or none took it) long ago: nothing written.
    ArchiveImport.objects.filter(pk=job.pk).update(
        state=state, queued_at=long_ago, started_at=long_ago, attempt=int(state == State.RUNNING)
    )

    shown = client.get(page(job)).content.decode()
    assert "The import stopped without finishing" in shown and "hx-trigger" not in shown
    with django_capture_on_commit_callbacks(execute=True) as published:
        assert client.post(resend)["Location"] == page(job)
    [job] = run_queued_imports()

    assert len(published) == 1
    assert job.state == State.DONE and Tournament.objects.count() == 1


def test_a_file_over_the_limit_is_refused_in_the_request_and_no_job_is_made(client, settings):
    settings.MAX_ARCHIVE_BYTES = 1024 * 1024
    client.force_login(organiser())

    response = upload(client, b" " * (1024 * 1024 + 1))
    at_limit = upload(client, b" " * (1024 * 1024))

    assert response.status_code == 400
    assert "The file is too large: at most 1 MB." in response.content.decode()
    assert at_limit.status_code == 302 and ArchiveImport.objects.count() == 1


@pytest.mark.clock
def test_a_real_worker_imports_the_upload_once_and_its_page_links_to_it(
    archive_text, client, default_worker
):
    client.force_login(organiser())
    response = upload(client, archive_text, slug="by-the-worker")
    job = ArchiveImport.objects.get()
    publish_archive_import(job.pk)  # a duplicate, as a redelivery would be

    assert response["Location"] == page(job)
    wait_for(
        lambda: "Tournament Job Cup imported." in client.get(page(job)).content.decode(),
        timeout=60,
        interval=0.5,
        what="the worker to import the archive",
    )
    shown = client.get(page(job)).content.decode()
    assert reverse("organiser_dashboard", args=["by-the-worker"]) in shown
    assert Tournament.objects.filter(slug="by-the-worker").count() == 1
    job.refresh_from_db()
    assert (job.state, job.attempt) == (State.DONE, 1)
    assert Entry.objects.filter(tournament__slug="by-the-worker").count() == 4


def test_a_run_overtaken_by_a_resent_one_writes_nothing(archive_text, client, monkeypatch):
    """The first run is slow: while it reads, its job is shown stopped, sent again and
    imported by a second run. The first then finds its attempt stale."""
    client.force_login(organiser())
    upload(client, archive_text)
    job = ArchiveImport.objects.get()
    runs = []

    def slow_read(data):
        document = read_archive(data)
        if not runs:
            runs.append("first")
            long_ago = timezone.now() - STUCK_AFTER - timedelta(seconds=1)
            ArchiveImport.objects.filter(pk=job.pk).update(started_at=long_ago)
            assert jobs.resend(job.pk, now=timezone.now())
            runs.append(run_archive_import(job.pk))
        return document

    monkeypatch.setattr(jobs, "read_archive", slow_read)
    first = run_archive_import(job.pk)

    assert runs == ["first", "imported job-cup"]
    assert first == "stale attempt: nothing written"
    job.refresh_from_db()
    assert (job.state, job.attempt, job.error) == (State.DONE, 2, "")
    assert Tournament.objects.count() == 1


def test_the_refusal_is_told_in_the_uploaders_language(client):
    client.force_login(organiser())
    file = io.BytesIO(b"\xff\xfe")
    file.name = "archive.json"
    client.post(reverse("organiser_import_archive"), {"file": file}, HTTP_ACCEPT_LANGUAGE="it")

    [job] = run_queued_imports()

    assert job.language == "it" and job.error == "Il file non è testo UTF-8."


def test_site_administrators_find_every_upload_in_the_admin_site(archive_text, client):
    client.force_login(organiser())
    upload(client, archive_text)
    client.force_login(UserFactory(is_superuser=True, is_staff=True))

    listed = client.get(reverse("admin:tournaments_archiveimport_changelist"))

    assert listed.status_code == 200 and "archive.json" in listed.content.decode()
