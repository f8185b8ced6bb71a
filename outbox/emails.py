"""Queue an e-mail in the caller's transaction; a Celery task sends it after the commit.

An SMTP server that never answers must not hold a request, so no request talks to it:
``queue_email`` writes an ``OutboundEmail`` row and, on commit, publishes
``outbox.send_email`` to the default queue. If the broker (Redis) is down the publish is
logged and dropped; the row stays and the beat's ``outbox.send_unsent`` sends it within
about a minute. A rolled-back transaction leaves neither row nor task.

Throttles (``Limit``) count rows, not Redis keys: how many messages of a kind went to the
same account or address in the window. The recipient's user row is locked while counting,
so parallel requests for one recipient cannot all read "below the limit".

Idempotency: a sender that can name its message passes ``key`` (at most 64 characters, e.g.
a digest of what makes the message the same one). A key already queued queues nothing; two
transactions queuing one key at once wait on the unique index, and the second queues
nothing once the first commits (or queues it itself if the first rolls back).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q

from .models import OutboundEmail
from .tasks import send_email

log = logging.getLogger(__name__)

#: How long a request may spend publishing (seconds). Celery's own publish retries the
#: broker connection for about 6 s; one try is enough here, the beat being the retry.
PUBLISH_TIMEOUT_S = 1.0
_ONE_TRY = {
    "max_retries": 0,
    "socket_connect_timeout": PUBLISH_TIMEOUT_S,
    "socket_timeout": PUBLISH_TIMEOUT_S,
}


@dataclass(frozen=True)
class Limit:
    """At most ``count`` messages of a kind per recipient (account or address) per ``window``."""

    count: int
    window: timedelta


def publish(email_id: int) -> None:
    """Ask a worker to send the message now; never raises (the beat is the safety net)."""
    try:
        with send_email.app.connection_for_write(
            connect_timeout=PUBLISH_TIMEOUT_S, transport_options=_ONE_TRY
        ) as connection:
            send_email.apply_async(
                args=[email_id],
                queue=settings.CELERY_TASK_DEFAULT_QUEUE,
                connection=connection,
                retry=False,
            )
    except Exception:  # the broker is down or refusing: the row waits for the beat
        log.warning("could not publish outbox.send_email(%s); the beat will send it", email_id)


def recent_count(*, kind: str, to: str, recipient=None, since: datetime) -> int:
    """Messages of ``kind`` queued since ``since`` to this address or this account."""
    who = Q(to_address__iexact=to)
    if recipient is not None:
        who |= Q(recipient=recipient)
    return OutboundEmail.objects.filter(who, kind=kind, created_at__gte=since).count()


def queue_email(
    *,
    kind: str,
    to: str,
    subject: str,
    body: str,
    now: datetime,
    recipient=None,
    html_body: str = "",
    limit: Limit | None = None,
    key: str = "",
) -> OutboundEmail | None:
    """Queue one message; None (nothing queued) when ``limit`` is reached or a message
    with this ``key`` was queued before."""
    with transaction.atomic():
        if key and OutboundEmail.objects.filter(key=key).exists():
            log.info("not queuing %s e-mail: its key was queued before", kind)
            return None
        if limit is not None:
            if recipient is not None:
                # Serialise the count per recipient (the row is locked until commit).
                get_user_model().objects.select_for_update().filter(pk=recipient.pk).first()
            sent = recent_count(kind=kind, to=to, recipient=recipient, since=now - limit.window)
            if sent >= limit.count:
                log.info("not queuing %s e-mail: %d in the window already", kind, sent)
                return None
        try:
            with transaction.atomic():  # a savepoint: a lost race on the key undoes only this
                email = OutboundEmail.objects.create(
                    kind=kind,
                    recipient=recipient,
                    to_address=to,
                    subject=subject,
                    body=body,
                    html_body=html_body,
                    created_at=now,
                    key=key,
                )
        except IntegrityError:
            if not key:
                raise
            log.info("not queuing %s e-mail: its key was queued meanwhile", kind)
            return None
        transaction.on_commit(lambda: publish(email.pk))
    return email
