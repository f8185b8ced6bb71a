"""The per-user live channel: a notice published for one user reaches that user's
stream (real Redis), and nobody else's; the view refuses anonymous users and gunicorn."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import uuid

import pytest
from django.urls import reverse

from games.events import publish
from games.live import stream as live
from tests.factories import UserFactory


def test_a_notice_reaches_its_user_stream_and_not_another(settings, monkeypatch):
    monkeypatch.setattr(publish, "_publisher", None)  # a client of another test's Redis
    settings.THUD_EVENTS_PREFIX = f"test-notices-{socket.gethostname()}-{uuid.uuid4().hex}-"

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


def test_a_stream_that_opens_just_after_a_notice_is_told_it_with_its_time(settings, monkeypatch):
    """A bot accepts a challenge while the challenger's page, after its POST, is loading:
    the page's stream, opening a moment later, still gets the notice (the last minute's,
    at most ``RECENT_NOTICES_MAX``, oldest first), stamped with the time it was published."""
    monkeypatch.setattr(publish, "_publisher", None)
    settings.THUD_EVENTS_PREFIX = f"test-recent-{uuid.uuid4().hex}-"
    before = int(time.time() * 1000)
    publish.publish_notices([(5, {"kind": "old", "n": 0})])
    publish.publish_notices([(5, {"kind": "accepted", "n": i}) for i in range(1, 11)])
    publish.publish_notices([(6, {"kind": "accepted", "n": 99})])

    async def run():
        mine = live.user_stream(5)
        assert await anext(mine) == b": connected\n\n"
        got = [await asyncio.wait_for(anext(mine), timeout=5) for _ in range(10)]
        await mine.aclose()
        live.user_hub.task.cancel()
        return got

    notices = [json.loads(frame.split(b"data: ", 1)[1]) for frame in asyncio.run(run())]
    # The ten newest, oldest first; the eleventh-newest and the other user's are not there.
    assert [n["n"] for n in notices] == list(range(1, 11))
    assert all(before <= n["at"] <= time.time() * 1000 for n in notices)
    (other,) = publish.recent_notices(6)
    assert other.pop("at") >= before and other == {"kind": "accepted", "n": 99}


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
