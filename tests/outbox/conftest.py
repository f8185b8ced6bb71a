from __future__ import annotations

from tests.outbox.fixtures import (  # noqa: F401
    broker_down,
    default_queue,
    smtp,
    smtp_refusing,
    smtp_silent,
)
