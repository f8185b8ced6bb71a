"""PDFs are rendered once per content version and never twice at once
(tournaments/reports/pdf_cache.py, issue 20); the fetcher refuses absolute paths itself."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.web.test_downloads import played
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.reports import pdf_cache
from tournaments.reports.pdf import static_file, static_files_fetcher

pytestmark = pytest.mark.django_db


def key(t, document="report", language="en") -> str:
    t.refresh_from_db()  # its status, as the view reads it
    version = pdf_cache.report_version if document == "report" else pdf_cache.tournament_version
    return f"pdf:{document}:{language}:{version(t)}"


def test_a_pdf_is_rendered_once_per_content_version(client):
    t = played()
    first = client.get(f"/t/{t.slug}/report.pdf")
    assert first.status_code == 200 and first.content.startswith(b"%PDF")
    with CaptureQueriesContext(connection) as again:
        second = client.get(f"/t/{t.slug}/report.pdf")
    assert second.content == first.content  # the cached bytes
    assert len(again.captured_queries) <= 3  # the gate and the fingerprint: no standings
    match = Match.objects.filter(round__tournament=t, player_b__isnull=False).first()
    Match.objects.filter(pk=match.pk).update(lock_version=match.lock_version + 1)
    with CaptureQueriesContext(connection) as changed:
        third = client.get(f"/t/{t.slug}/report.pdf")
    assert third.status_code == 200 and len(changed.captured_queries) > 3  # rendered anew


def test_closing_the_tournament_gives_a_new_report_pdf(client):
    t = played()
    client.get(f"/t/{t.slug}/report.pdf")
    before = key(t)
    assert cache.get(before) is not None
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    assert key(t) != before  # the standings did not change, the stage did
    with CaptureQueriesContext(connection) as closed:
        assert client.get(f"/t/{t.slug}/report.pdf").status_code == 200
    assert len(closed.captured_queries) > 3 and cache.get(key(t)) is not None


def test_a_pdf_being_rendered_elsewhere_answers_503_with_retry_after(client):
    t = played()
    cache.add(f"{key(t)}:rendering", 1, 30)  # another request is rendering it
    with CaptureQueriesContext(connection) as asked:
        response = client.get(f"/t/{t.slug}/report.pdf")
    assert response.status_code == 503 and response["Retry-After"] == "2"
    # Not rendered here as well: no more than the gate's and the cache key's queries.
    assert len(asked.captured_queries) <= 3
    page = response.content.decode()
    assert "being made now" in page and 'http-equiv="refresh"' in page


def test_a_request_waiting_for_anothers_render_gets_its_pdf(client):
    t = played()
    name = key(t)
    cache.add(f"{name}:rendering", 1, 30)
    threading.Timer(0.05, lambda: cache.set(name, b"%PDF-the other render", 60)).start()
    response = client.get(f"/t/{t.slug}/report.pdf")
    assert response.status_code == 200 and response.content == b"%PDF-the other render"


def test_without_redis_every_request_renders_its_own_pdf(client, redis_down):
    t = played()
    for _ in range(2):
        response = client.get(f"/t/{t.slug}/standings.pdf")
        assert response.status_code == 200 and response.content.startswith(b"%PDF")


@pytest.mark.parametrize(
    "url", ["/static//etc/passwd", "/static/%2Fetc/passwd", "/static/C:/x.css", "/static/a%00.css"]
)
def test_the_fetcher_refuses_absolute_and_strange_paths_itself(url, settings):
    # No finder is asked: an absolute path must not depend on a finder raising.
    settings.STATICFILES_FINDERS = []
    settings.STATIC_ROOT = "/"
    assert static_file(url) is None
    with pytest.raises(ValueError, match="Only static files"):
        static_files_fetcher().fetch(f"http://testserver{url}")
