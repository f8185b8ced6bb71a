"""Celery application, configured from Django settings (namespace CELERY)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")

app = Celery("thud_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Every worker consuming the clock queue runs the clock timer (games/live/timer.py).
app.steps["worker"].add("games.live.timer:ClockTimer")
