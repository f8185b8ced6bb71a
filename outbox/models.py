"""E-mail waiting to leave: one row per message, written in the sender's transaction.

Terminology and invariants:
- A message is *queued* when its row is written (``outbox.emails.queue_email``), *sent*
  once ``sent_at`` is set, and *given up* when it is still unsent after ``MAX_ATTEMPTS``
  attempts (``last_error`` says why).
- ``sent_at`` is set in the transaction that holds the row's lock while the message is
  handed to the mail server, so two workers never both send one row.
- ``kind`` and ``recipient`` exist for throttling: "how many challenge e-mails did this
  user receive in the last hour" is a count of rows, true with Redis down.
- ``key`` (optional) is the message's idempotency key: at most one row ever has a given
  key, so a sender that names its message (a retried request, a double tap) queues it once.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models

#: Attempts before a message is given up (the beat retries about once a minute).
MAX_ATTEMPTS = 5


class OutboundEmailQuerySet(models.QuerySet):
    def unsent(self) -> OutboundEmailQuerySet:
        return self.filter(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS)

    def queued_before(self, moment: datetime) -> OutboundEmailQuerySet:
        """Unsent messages queued before ``moment``: the task that should have sent them
        was lost (broker down) or failed; fewest attempts first, so one bad address does
        not starve the others."""
        return self.unsent().filter(created_at__lt=moment).order_by("attempts", "created_at")


class OutboundEmail(models.Model):
    kind = models.CharField(max_length=32)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    to_address = models.EmailField(max_length=254)
    subject = models.TextField()
    body = models.TextField()
    html_body = models.TextField(blank=True)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    key = models.CharField(max_length=64, blank=True, default="")

    objects = OutboundEmailQuerySet.as_manager()

    class Meta:
        indexes = [
            # The beat's "still unsent" scan stays small however many were sent.
            models.Index(
                fields=["created_at"],
                condition=models.Q(sent_at__isnull=True),
                name="outbox_unsent_created",
            ),
            # Throttles count a recipient's recent messages of one kind.
            models.Index(fields=["recipient", "kind", "created_at"], name="outbox_recipient_kind"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=~models.Q(key=""), name="outbox_key_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.to_address} ({'sent' if self.sent_at else 'unsent'})"
