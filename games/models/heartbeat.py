"""The web processes' heartbeats: when each last proved the site reachable."""

from __future__ import annotations

from datetime import datetime

from django.db import models
from django.db.models import Max


class WebHeartbeat(models.Model):
    """The last time one web process proved the site reachable (``games.live.outages``).

    One row per process (``host:pid``), written every ``HEARTBEAT_S`` while the process
    reaches the database and Redis; rows of dead processes simply stop changing.
    """

    name = models.CharField(max_length=120, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} {self.seen_at:%H:%M:%S.%f}"


def site_seen_at() -> datetime | None:
    """The newest heartbeat of any web process, or None if there never was one."""
    return WebHeartbeat.objects.aggregate(seen=Max("seen_at"))["seen"]
