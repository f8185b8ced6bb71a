"""The per-user live channel: a notice published for one user reaches that user's
stream (real Redis), and nobody else's; the view refuses anonymous users and gunicorn."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest
from django.urls import reverse

from games.events import publish
from games.live import stream as live
from tests.factories import UserFactory


def test_a_notice_reaches_its_user_stream_and_not_another(settings, monkeypatch):
    monkeypatch.setattr(publish, "_publisher", None)  # a client of another test's Redis
    settings.THUD_EVENTS_PREFIX = f"test-notices-{socket.gethostname()}-"

    async def run():
        mine, other = live.user_stream(7), live.user_stream(8)
        assert await anext(mine) == b": connected\n\n"  # subscribed: nothing is missed now
        assert await anext(other) == b": connected\n\n"
        publish.publish_notices([(7, {"kind": "waiting", "battle": 3, "url": "/battles/3/"})])
        got = await asyncio.wait_for(anext(mine), timeout=5)
        try:
            leaked = await asyncio.wait_for(anext(other), timeout=0.5)
        except TimeoutError:
            leaked = None
        await mine.aclose()
        await other.aclose()
        live.user_hub.task.cancel()
        return got, leaked

    before = time.time() * 1000
    got, leaked = asyncio.run(run())
    assert got.startswith(b"event: notice\ndata: ")
    notice = json.loads(got.split(b"data: ", 1)[1])
    sent = notice.pop("at")  # the time of sending, read by the page: stale notices drop
    assert notice == {"kind": "waiting", "battle": 3, "url": "/battles/3/"}
    assert abs(sent - before) < 60_000
    assert leaked is None


def test_a_failed_publish_is_only_logged(settings, caplog, monkeypatch):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    monkeypatch.setattr(publish, "_publisher", None)
    publish.publish_notices([(1, {"kind": "waiting"})])
    assert "could not publish user notices" in caplog.text


@pytest.mark.django_db
def test_the_notices_stream_refuses_anonymous_users_and_the_wsgi_server(client):
    url = reverse("games:notices")
    assert client.get(url).status_code == 403
    client.force_login(UserFactory())
    assert client.get(url).status_code == 503  # the test client is WSGI, like gunicorn


@pytest.mark.django_db
def test_every_page_of_a_logged_in_user_reads_the_notices_and_anonymous_pages_do_not(client):
    assert 'id="notices"' not in client.get("/").content.decode()
    client.force_login(UserFactory())
    html = client.get("/").content.decode()
    assert f'data-stream="{reverse("games:notices")}"' in html and "js/notices.js" in html
