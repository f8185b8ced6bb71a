"""Celery tasks of the outbox: thin, idempotent, on the default queue (never the clock's)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from . import delivery


@shared_task(name="outbox.send_email", ignore_result=True)
def send_email(email_id: int) -> str:
    return delivery.deliver(email_id, now=timezone.now())


@shared_task(name="outbox.send_unsent", ignore_result=True)
def send_unsent() -> int:
    return delivery.deliver_unsent(now=timezone.now())
