"""Celery tasks of casual play (default queue)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from . import challenges


@shared_task(name="play.expire_offers", ignore_result=True)
def expire_offers() -> int:
    return challenges.mark_expired(now=timezone.now())
