"""API v1's NDJSON streams (play/views_api_v1_streams.py): against the real site (uvicorn, a
clock worker and beat, the real Redis), a program reads its events and its battle's
states line by line while it plays through the API; under the WSGI server they are 503."""

from __future__ import annotations

import json
import queue
import threading

import httpx
import pytest
from django.utils import timezone

from accounts import tokens
from games.battles.starting import create_casual_battle
from play import challenges
from tests.factories import UserFactory

PROBLEM = "application/problem+json"
NDJSON = "application/x-ndjson"
WAIT_S = 20


def token_for(user, scopes=("play",)) -> str:
    return tokens.make_token(user, name="engine", scopes=scopes, now=timezone.now()).plain


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Lines:
    """A stream read in a thread: each JSON line into a queue, keepalives counted."""

    def __init__(self, url: str, token: str) -> None:
        self.lines: queue.Queue = queue.Queue()
        self.status: int | None = None
        self.content_type = ""
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(url, token), daemon=True)
        self.thread.start()
        assert self.ready.wait(WAIT_S), "the stream never answered"

    def _read(self, url: str, token: str) -> None:
        with (
            httpx.Client(timeout=httpx.Timeout(60.0)) as http,
            http.stream("GET", url, headers=bearer(token)) as response,
        ):
            self.status, self.content_type = response.status_code, response.headers["content-type"]
            self.ready.set()
            try:
                for line in response.iter_lines():
                    if line.strip():
                        self.lines.put(json.loads(line))
            except httpx.HTTPError:  # the site stopped at the test's end
                return
            self.lines.put(None)  # the server ended the stream

    def next(self) -> dict | None:
        return self.lines.get(timeout=WAIT_S)

    def next_where(self, test) -> dict:
        while True:
            line = self.next()
            assert line is not None, "the stream ended first"
            if test(line):
                return line


@pytest.mark.clock
def test_a_program_follows_its_events_and_its_battle_line_by_line_until_the_end(server):
    alice, bob = UserFactory(username="alice-engine"), UserFactory(username="bob-engine")
    a_token, b_token = token_for(alice), token_for(bob, scopes=("bot",))
    events = Lines(f"{server}/api/v1/stream/events", b_token)
    assert (events.status, events.content_type) == (200, NDJSON)

    # Someone challenges bob: his event stream says so, with the challenge and its sender.
    challenge = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=timezone.now()
    )
    told = events.next()
    assert told == {"type": "challenge", "challenge": challenge.pk, "from": "alice-engine"}

    battle = create_casual_battle(
        game="thud", first=alice, second=bob, await_players=True, now=timezone.now()
    )
    states = Lines(f"{server}/api/v1/battles/{battle.pk}/stream", b_token)
    assert (states.status, states.content_type) == (200, NDJSON)
    first = states.next()
    assert first["type"] == "state" and first["state"]["status"] == "pending"

    with httpx.Client(base_url=server, timeout=30) as http:
        assert http.post(f"/api/v1/battles/{battle.pk}/ready", headers=bearer(a_token)).is_success
        # Alice is at the board: bob is told the battle waits for him. (Just after
        # connecting, an event may come twice, replayed and live, keyed_stream: a reader
        # drops one it has seen.)
        start = events.next_where(lambda e: e != told)
        assert start == {"type": "gameStart", "battle": battle.pk, "from": "alice-engine"}
        assert http.post(f"/api/v1/battles/{battle.pk}/ready", headers=bearer(b_token)).is_success
        running = states.next_where(lambda s: s["state"]["status"] == "running")["state"]
        game = battle.rules
        move = game.legal_moves(game.deserialise(running["position"]))[0]
        played = http.post(
            f"/api/v1/battles/{battle.pk}/move",
            headers=bearer(a_token),
            json={"move": move, "version": running["version"]},
        )
        assert played.status_code == 200, played.text
        after = states.next_where(lambda s: s["state"]["ply"] == 1)["state"]
        assert after["position"] == played.json()["position"]
        assert after["side_to_move"] == game.sides[1].key

        http.post(f"/api/v1/battles/{battle.pk}/end-offer/offer", headers=bearer(a_token))
        http.post(f"/api/v1/battles/{battle.pk}/end-offer/accept", headers=bearer(b_token))
    last = states.next_where(lambda s: s["state"]["status"] == "finished")
    assert last["state"]["finished_reason"]
    assert states.next() is None  # the battle's stream ends with it
    assert events.next_where(lambda e: e["type"] == "gameFinish")["battle"] == battle.pk


@pytest.mark.django_db(transaction=True)  # the gate reads in a thread of its own
def test_under_the_wsgi_server_a_stream_is_a_503_problem_and_a_stranger_a_404(client):
    alice, bob = UserFactory(), UserFactory()
    battle = create_casual_battle(game="thud", first=alice, second=bob, now=timezone.now())
    token = token_for(alice)
    r = client.get(f"/api/v1/battles/{battle.pk}/stream", headers=bearer(token))
    assert r.status_code == 503 and r["Content-Type"] == PROBLEM
    assert "events process" in r.json()["detail"]
    assert client.get("/api/v1/stream/events", headers=bearer(token)).status_code == 503
    missing = client.get("/api/v1/battles/999999/stream", headers=bearer(token))
    assert missing.status_code == 404 and missing["Content-Type"] == PROBLEM
    assert client.get(f"/api/v1/battles/{battle.pk}/stream").status_code == 401
