"""The bots queue of one test: moves queued there are counted, then deleted (never the
machine's ``bots`` queue, which a running site's bots worker reads)."""

from __future__ import annotations

import base64
import contextlib
import json
import uuid

import pytest
import redis


@pytest.fixture
def bots_queue(settings):
    name = f"botstest-{uuid.uuid4().hex[:10]}"
    settings.THUD_BOTS_QUEUE = name
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
    yield client, name
    with contextlib.suppress(redis.RedisError):
        client.delete(name, f"_kombu.binding.{name}")


def queued_moves(client: redis.Redis, name: str) -> list[list[int]]:
    """The arguments ``[battle_id, version]`` of every ``bots.move`` waiting in ``name``."""
    found = []
    for raw in client.lrange(name, 0, -1):
        message = json.loads(raw)
        assert message["headers"]["task"] == "bots.move"
        assert message["properties"]["body_encoding"] == "base64"
        args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        found.append(args)
    return found
