"""The settings mypy's Django plugin loads: the project's own, with a placeholder secret key
when none is set (the type checker reads the settings; it never serves a request)."""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "type-checking-only-never-serves-a-request")

from thud_site.settings import *  # noqa: E402, F403
