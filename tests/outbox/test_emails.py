"""Queuing: the row is written in the caller's transaction, the task is published on
commit to the default queue, and a broker that is down costs the request nothing."""

from __future__ import annotations

import json
import logging
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from outbox.emails import Limit, publish, queue_email
from outbox.models import OutboundEmail
from outbox.tasks import send_email
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def queue(now=None, **kw):
    fields = {"kind": "test", "to": "bob@example.org", "subject": "Hi", "body": "Hello"}
    return queue_email(now=now or timezone.now(), **(fields | kw))


def test_a_queued_email_is_sent_by_the_task_after_commit_and_only_once(
    default_queue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        email = queue()
    assert mail.outbox == [] and len(callbacks) == 1  # nothing sent in the request
    assert OutboundEmail.objects.get().sent_at is None
    send_email(email.pk)
    send_email(email.pk)  # a redelivered task
    assert [(m.to, m.subject, m.body) for m in mail.outbox] == [
        (["bob@example.org"], "Hi", "Hello")
    ]
    email.refresh_from_db()
    assert email.sent_at is not None and email.attempts == 1


def test_a_rolled_back_transaction_queues_nothing(django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=False) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        queue()
        raise RuntimeError("the caller's work failed")
    assert callbacks == [] and not OutboundEmail.objects.exists()


def test_the_task_is_published_to_the_default_queue(
    default_queue, django_capture_on_commit_callbacks
):
    client, name = default_queue
    with django_capture_on_commit_callbacks(execute=True):
        email = queue()
    assert client.llen(name) == 1
    headers = json.loads(client.lpop(name))["headers"]
    assert (headers["task"], headers["argsrepr"]) == ("outbox.send_email", f"[{email.pk}]")


def test_outbox_tasks_route_and_beat_to_the_default_queue_never_the_clock_queue(settings):
    from thud_site.celery import app

    default = app.conf.task_default_queue
    assert default != settings.THUD_CLOCK_QUEUE
    for task in ("outbox.send_email", "outbox.send_unsent"):
        assert app.amqp.router.route({}, task)["queue"].name == default
    beat = settings.CELERY_BEAT_SCHEDULE["outbox-send-unsent"]
    assert beat["task"] == "outbox.send_unsent" and beat["options"]["queue"] == default
    assert beat["schedule"] <= 60


def test_with_the_broker_down_publishing_logs_and_returns_quickly(broker_down, caplog):
    email = queue()
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="outbox.emails"):
        publish(email.pk)  # must not raise
    assert time.monotonic() - started < 2
    assert "the beat will send it" in caplog.text
    assert OutboundEmail.objects.get().sent_at is None  # kept for the beat


def test_a_limit_counts_the_recipients_recent_emails_of_that_kind():
    bob = UserFactory(email="bob@example.org")
    now = timezone.now()
    limit = Limit(count=2, window=timedelta(hours=1))
    queue(now - timedelta(minutes=61), recipient=bob, limit=limit)  # outside the window
    assert queue(now - timedelta(minutes=5), recipient=bob, limit=limit)
    assert queue(now - timedelta(minutes=5), kind="other", recipient=bob, limit=limit)
    assert queue(now, to="BOB@example.org", limit=limit)  # the address, whatever its case
    assert queue(now, recipient=bob, limit=limit) is None
    assert queue(now, to="carol@example.org", limit=limit)
    assert OutboundEmail.objects.filter(kind="test").count() == 4


def test_a_key_queues_its_message_once_and_sends_it_once(
    default_queue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        email = queue(key="link-1")
        assert queue(key="link-1") is None  # a retry, a double tap
        assert queue(key="link-1", to="carol@example.org") is None  # the key decides
    assert len(callbacks) == 1
    assert queue(key="link-2") is not None and queue() is not None  # no key: always queued
    send_email(email.pk)
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    assert OutboundEmail.objects.filter(key="link-1").count() == 1


def test_a_key_of_a_rolled_back_message_can_be_queued_again():
    with pytest.raises(RuntimeError), transaction.atomic():
        queue(key="link-1")
        raise RuntimeError("the caller's work failed")
    assert queue(key="link-1") is not None


def test_two_transactions_racing_on_one_key_queue_one_message(transactional_db):
    """The second insert waits on the unique index and, once the first commits, queues
    nothing (the check before it saw no row): the savepoint catches the refusal."""
    from threading import Barrier, Thread

    from django.db import connection

    barrier, results = Barrier(2), []

    def one() -> None:
        try:
            with transaction.atomic():
                barrier.wait(timeout=10)
                results.append(queue(key="race"))
        finally:
            connection.close()

    threads = [Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(r is None for r in results) == [False, True]
    assert OutboundEmail.objects.filter(key="race").count() == 1
