"""The live stream's URL (``games.web.views_events.battle_events``) as each server serves it: uvicorn
(ASGI) streams, gunicorn (WSGI, through the same URLconf) refuses at once with 503 and
names the events process instead of buffering an endless stream in a sync worker.
The stream itself, against a real uvicorn and Redis, is ``test_events.py``'s."""

from __future__ import annotations

import asyncio

import pytest
from django.test import AsyncClient
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_casual_battle
from tests.factories import UserFactory


@pytest.mark.timeout(20)
@pytest.mark.django_db(transaction=True)  # the gate reads the battle in its own thread
def test_the_stream_under_wsgi_is_refused_at_once_naming_the_events_process(client):
    b = create_casual_battle(
        game="cavalli", first=UserFactory(), second=UserFactory(), now=timezone.now()
    )
    url = reverse("games:events", args=[b.pk])
    r = client.get(url)  # Django's test client is WSGI, as gunicorn is
    assert r.status_code == 503 and not r.streaming  # an answer, never an endless stream
    text = r.content.decode()
    assert "events process" in text and "uvicorn" in text and "Procfile" in text
    assert client.get(reverse("games:events", args=[999999])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_stream_under_asgi_still_streams(client):
    b = create_casual_battle(
        game="cavalli", first=UserFactory(), second=UserFactory(), now=timezone.now()
    )

    async def opened():
        # Not read: the stream itself needs Redis (the uvicorn tests above read it).
        return await AsyncClient().get(reverse("games:events", args=[b.pk]))

    response = asyncio.run(opened())
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "text/event-stream"


@pytest.mark.django_db(transaction=True)
def test_opening_the_stream_joins_nobody_state_changes_only_on_post(client):
    """A player whose stream is opened from elsewhere (a link, their personal page) has
    not joined: only the battle page's POST (Ready) joins them and starts the clock."""
    first, second = UserFactory(), UserFactory()
    b = create_casual_battle(
        game="thud", first=first, second=second, await_players=True, now=timezone.now()
    )
    assert b.presence_state.awaiting

    async def opened():
        async_client = AsyncClient()
        await async_client.aforce_login(first)
        return await async_client.get(reverse("games:events", args=[b.pk]))

    response = asyncio.run(opened())
    assert response.status_code == 200 and response.streaming
    b.refresh_from_db()
    assert b.first_joined_at is None and b.second_joined_at is None
    assert b.status == "pending" and b.clock_version == 0
    client.force_login(first)
    assert client.post(reverse("games:ready", args=[b.pk])).status_code in (200, 302)
    b.refresh_from_db()
    assert b.first_joined_at is not None
