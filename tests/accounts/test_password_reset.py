"""Password reset: the e-mail is queued in the outbox, not sent by the request; at most 3
an hour per account/address and 10 requests an hour per client address, and the page
answers the same whether an account exists, was throttled or got its e-mail."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.password_reset import EMAILS_PER_ADDRESS, REQUESTS_PER_CLIENT
from outbox.models import OutboundEmail
from outbox.tasks import send_email
from tests.factories import UserFactory
from tests.tournaments.results.test_workflow_concurrency import race

pytestmark = pytest.mark.django_db


def ask(client, email, addr="10.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=addr)


def answered_as_usual(response) -> bool:
    return response.status_code == 302 and response["Location"] == reverse("password_reset_done")


def resets() -> int:
    return OutboundEmail.objects.filter(kind="password_reset").count()


def test_the_reset_email_is_queued_then_sent_by_the_task_and_its_link_works(
    client, django_capture_on_commit_callbacks
):
    user = UserFactory(email="mustrum@example.org")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert answered_as_usual(ask(client, "MUSTRUM@example.org"))
    assert mail.outbox == [] and len(callbacks) == 1  # the request sends nothing
    queued = OutboundEmail.objects.get()
    assert (queued.recipient, queued.to_address) == (user, "mustrum@example.org")
    send_email(queued.pk)
    (message,) = mail.outbox
    assert message.to == ["mustrum@example.org"] and "\n" not in message.subject
    link = next(line for line in message.body.split() if "/accounts/reset/" in line)
    assert client.get(link).status_code == 302  # on to "set a new password"


def test_at_most_three_reset_emails_an_hour_per_address_from_any_client(client):
    user = UserFactory(email="rincewind@example.org")
    answers = [ask(client, user.email, addr=f"10.0.1.{i}") for i in range(6)]
    assert all(answered_as_usual(r) for r in answers)
    assert resets() == EMAILS_PER_ADDRESS.count == 3
    hour_ago = OutboundEmail.objects.earliest("created_at").created_at - timedelta(minutes=61)
    OutboundEmail.objects.update(created_at=hour_ago)
    assert answered_as_usual(ask(client, user.email, addr="10.0.2.1"))
    assert resets() == 4  # an hour later, one more


def test_at_most_ten_reset_requests_an_hour_per_client_address(client):
    users = [UserFactory(email=f"wizard{i}@example.org") for i in range(REQUESTS_PER_CLIENT + 2)]
    answers = [ask(client, u.email, addr="10.0.3.1") for u in users]
    assert all(answered_as_usual(r) for r in answers)
    assert resets() == REQUESTS_PER_CLIENT
    assert answered_as_usual(ask(client, users[-1].email, addr="10.0.3.2"))
    assert resets() == REQUESTS_PER_CLIENT + 1  # another client is not held back


def test_unknown_addresses_count_too_and_get_the_same_answer(client):
    UserFactory(email="known@example.org")
    for i in range(REQUESTS_PER_CLIENT):
        assert answered_as_usual(ask(client, f"nobody{i}@example.org", addr="10.0.4.1"))
    assert answered_as_usual(ask(client, "known@example.org", addr="10.0.4.1"))
    assert resets() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks")
def test_parallel_reset_requests_for_one_address_queue_three_emails():
    user = UserFactory(email="twoflower@example.org")

    def ask_from(i):
        return lambda: ask(Client(), user.email, addr=f"10.0.5.{i}")

    outcomes = race(*[ask_from(i) for i in range(8)])
    assert all(answered_as_usual(r) for r in outcomes), outcomes
    assert resets() == EMAILS_PER_ADDRESS.count


def test_the_reset_email_is_queued_at_the_time_of_the_request(client):
    UserFactory(email="ridcully@example.org")
    asked_at = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    with time_machine.travel(asked_at, tick=False):
        assert answered_as_usual(ask(client, "ridcully@example.org"))
    assert OutboundEmail.objects.get().created_at == asked_at
