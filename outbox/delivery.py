"""Hand queued messages to the mail server, each at most once.

``deliver`` locks the row (``SELECT ... FOR UPDATE SKIP LOCKED``) for the whole send: a
second worker holding the same id skips it instead of waiting, and a row already sent is
left alone, so a redelivered task or the beat racing the task never sends twice. The lock
is held while the server is talked to, at most ``EMAIL_TIMEOUT`` seconds.

The one window left is a crash after the server accepted the message and before the
commit: the row is still unsent and is sent again (at least once, never silently lost).
"""

from __future__ import annotations

import enum
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction

from .models import MAX_ATTEMPTS, OutboundEmail

log = logging.getLogger(__name__)

#: How long the task has to send a message before the beat sends it instead.
RETRY_AFTER = timedelta(seconds=30)
#: Messages sent per beat tick (a slow server costs up to EMAIL_TIMEOUT each).
BATCH = 50


class Delivery(enum.StrEnum):
    SENT = "sent"
    SKIPPED = "skipped"  # already sent, given up, or being sent by another worker
    FAILED = "failed"


def _message(email: OutboundEmail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        email.subject, email.body, settings.DEFAULT_FROM_EMAIL, [email.to_address]
    )
    if email.html_body:
        message.attach_alternative(email.html_body, "text/html")
    return message


def deliver(email_id: int, *, now: datetime) -> Delivery:
    """Send one message unless it is sent, given up or being sent by another worker."""
    with transaction.atomic():
        email = (
            OutboundEmail.objects.unsent()
            .select_for_update(skip_locked=True)
            .filter(pk=email_id)
            .first()
        )
        if email is None:
            return Delivery.SKIPPED
        email.attempts += 1
        try:
            _message(email).send()
        except Exception as exc:  # any mail failure: keep the row for the next attempt
            email.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            email.save(update_fields=["attempts", "last_error"])
            level = logging.ERROR if email.attempts >= MAX_ATTEMPTS else logging.WARNING
            log.log(level, "e-mail %s not sent (attempt %d): %s", email.pk, email.attempts, exc)
            return Delivery.FAILED
        email.sent_at = now
        email.save(update_fields=["attempts", "sent_at"])
        return Delivery.SENT


def deliver_unsent(*, now: datetime) -> int:
    """Send what the tasks did not: rows still unsent ``RETRY_AFTER`` after queuing.

    Stops at the first failure: the server is most likely down for all of them, and the
    next tick tries again (a failing row has one attempt more and goes to the back).
    """
    ids = list(
        OutboundEmail.objects.queued_before(now - RETRY_AFTER).values_list("pk", flat=True)[:BATCH]
    )
    sent = 0
    for email_id in ids:
        outcome = deliver(email_id, now=now)
        if outcome is Delivery.FAILED:
            break
        sent += outcome is Delivery.SENT
    return sent
