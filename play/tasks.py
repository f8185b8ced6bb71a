"""Celery tasks of casual play (default queue)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from games.battles import joining

from . import challenges


@shared_task(name="play.expire_offers", ignore_result=True)
def expire_offers() -> int:
    return challenges.mark_expired(now=timezone.now())


@shared_task(name="play.expire_unjoined", ignore_result=True)
def expire_unjoined() -> int:
    """Casual battles that waited for their players until they expired: closed, no result."""
    return joining.expire_unjoined(now=timezone.now())
