from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
application = get_wsgi_application()

# Every process that serves pages proves the site reachable (games/live/outages.py).
from django.utils import timezone  # noqa: E402

from front import heartbeat  # noqa: E402  (needs the settings loaded above)

heartbeat.start(read_clock=timezone.now)
