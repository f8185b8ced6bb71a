"""The desk's live events (``games.web.views_events.tournament_events``, ``publish`` on
``tournament:<id>``): gated to the tournament's referees and organisers."""

from __future__ import annotations

import json

import pytest

from games.events import publish
from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


# The gate runs in another thread (its own connection): the rows must be committed.
@pytest.mark.django_db(transaction=True)
def test_a_stranger_gets_403_and_a_referee_reaches_the_events_process(client):
    t = TournamentFactory()
    url = f"/battles/tournaments/{t.slug}/events/"
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(t.owner)
    assert client.get(url).status_code == 503  # WSGI: only the events process streams


def test_a_check_in_publishes_on_the_tournament_channel(monkeypatch):
    sent = []

    class Fake:
        def publish(self, channel, data):
            sent.append((channel, json.loads(data)))

    monkeypatch.setattr(publish, "_publisher", Fake())
    publish.on_attendance_changed(None, tournament_id=42)
    assert sent == [(publish.tournament_channel(42), {"event": "checkin"})]
