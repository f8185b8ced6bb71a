"""Outbox fixtures: a throwaway default queue on the real Redis, a broker that refuses,
and SMTP servers that refuse or never answer (real sockets, no emulation).

Imported by the conftest of every test folder whose tests queue e-mail."""

from __future__ import annotations

import contextlib
import socket
import uuid

import pytest
import redis
from django.conf import settings


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens


def use_broker(url: str) -> None:
    """Point this process's Celery producer at ``url`` (its pools are cached)."""
    from thud_site.celery import app

    app.conf["CELERY_BROKER_URL"] = url  # namespace "CELERY": keys carry the prefix
    app.conf["CELERY_BROKER_WRITE_URL"] = None
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def default_queue(settings):
    """The default queue of this test: messages published here are counted, then deleted."""
    name = f"outboxtest-{uuid.uuid4().hex[:10]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = name
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
    yield client, name
    with contextlib.suppress(redis.RedisError):
        client.delete(name, f"_kombu.binding.{name}")


@pytest.fixture
def broker_down():
    use_broker(f"redis://127.0.0.1:{closed_port()}/0")
    yield
    use_broker(settings.CELERY_BROKER_URL)


@pytest.fixture
def smtp(settings):
    """The real SMTP backend, pointed at a port of our choosing."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_TIMEOUT = 0.5
    return settings


@pytest.fixture
def smtp_refusing(smtp):
    smtp.EMAIL_PORT = closed_port()
    return smtp


@pytest.fixture
def smtp_silent(smtp):
    """A server that accepts the connection and then never says a word."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)  # the kernel completes the handshake; nobody ever reads
        smtp.EMAIL_PORT = server.getsockname()[1]
        yield smtp
