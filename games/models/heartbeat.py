"""The web processes' heartbeats: when each last proved the site reachable."""

from __future__ import annotations

from django.db import models


class WebHeartbeat(models.Model):
    """The last time one web process proved the site reachable (``games.live.outages``).

    One row per process (``host:pid``), written every ``HEARTBEAT_S`` while the process
    reaches the database and Redis; rows of dead processes simply stop changing.
    """

    name = models.CharField(max_length=120, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} {self.seen_at:%H:%M:%S.%f}"
