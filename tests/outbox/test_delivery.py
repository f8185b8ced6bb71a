"""Delivery: each row sent at most once (locked, skipped when taken or sent), kept and
retried by the beat when the server refuses or never answers, given up after a few tries."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connections, transaction
from django.utils import timezone

from outbox.delivery import RETRY_AFTER, Delivery, deliver, deliver_unsent
from outbox.models import MAX_ATTEMPTS, OutboundEmail
from outbox.tasks import send_unsent


def row(*, age=timedelta(0), **kw) -> OutboundEmail:
    fields = {"kind": "test", "to_address": "bob@example.org", "subject": "Hi", "body": "Hello"}
    return OutboundEmail.objects.create(created_at=timezone.now() - age, **(fields | kw))


@pytest.mark.django_db
def test_a_sent_email_is_never_sent_again():
    email = row()
    now = timezone.now()
    assert deliver(email.pk, now=now) is Delivery.SENT
    assert deliver(email.pk, now=now) is Delivery.SKIPPED
    assert deliver_unsent(now=now + timedelta(hours=1)) == 0
    assert len(mail.outbox) == 1 and mail.outbox[0].from_email == "webmaster@localhost"


@pytest.mark.django_db
def test_the_html_alternative_is_attached_when_there_is_one():
    deliver(row(html_body="<p>Hello</p>").pk, now=timezone.now())
    assert mail.outbox[0].alternatives[0][1] == "text/html"


@pytest.mark.django_db
def test_the_beat_sends_what_is_still_unsent_after_30_seconds_and_leaves_fresh_rows_to_the_task():
    stale = row(age=RETRY_AFTER + timedelta(seconds=1))
    fresh = row(age=RETRY_AFTER - timedelta(seconds=5), to_address="carol@example.org")
    assert send_unsent() == 1
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    stale.refresh_from_db()
    fresh.refresh_from_db()
    assert stale.sent_at is not None and fresh.sent_at is None


@pytest.mark.django_db
def test_a_refusing_server_keeps_the_row_and_the_beat_gives_up_after_a_few_attempts(
    smtp_refusing,
):
    email = row(age=timedelta(minutes=1))
    later = timezone.now()
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert deliver_unsent(now=later) == 0
        email.refresh_from_db()
        assert email.attempts == attempt and email.sent_at is None
        assert "ConnectionRefusedError" in email.last_error
    assert deliver_unsent(now=later) == 0  # given up: not tried again
    email.refresh_from_db()
    assert email.attempts == MAX_ATTEMPTS


@pytest.mark.django_db
def test_a_server_that_never_answers_costs_one_email_timeout_and_nothing_is_lost(
    silent_mail_server,
):
    email = row()
    assert deliver(email.pk, now=timezone.now()) is Delivery.FAILED
    assert silent_mail_server.connections() == 1  # one try, one timeout; no retry loop
    email.refresh_from_db()
    assert email.sent_at is None and email.attempts == 1 and "timed out" in email.last_error


@pytest.mark.django_db
def test_the_beat_stops_at_the_first_failure_and_tries_fresh_rows_first_next_time(
    smtp_refusing, settings
):
    first, second = row(age=timedelta(minutes=2)), row(age=timedelta(minutes=1))
    deliver_unsent(now=timezone.now())
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.attempts, second.attempts) == (1, 0)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # server back
    assert deliver_unsent(now=timezone.now()) == 2


@pytest.mark.django_db(transaction=True)
def test_a_row_locked_by_another_worker_is_skipped_not_waited_for():
    email = row()
    locked, release = threading.Event(), threading.Event()

    def other_worker():
        try:
            with transaction.atomic():
                OutboundEmail.objects.select_for_update().get(pk=email.pk)
                locked.set()
                release.wait(timeout=5)
        finally:
            connections.close_all()

    worker = threading.Thread(target=other_worker)
    worker.start()
    assert locked.wait(timeout=5)
    try:
        outcome = deliver(email.pk, now=timezone.now())
        # Had it waited for the lock, the other worker would have given up holding it.
        still_held = worker.is_alive()
    finally:
        release.set()
        worker.join()
    assert outcome is Delivery.SKIPPED and still_held and mail.outbox == []
