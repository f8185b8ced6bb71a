"""Battles the clock cannot handle: set aside once, so they never stop the others.

Terminology and invariants (issue 40):
- A battle whose row cannot be settled (a board its engine cannot read, clock columns
  out of range: data imported from elsewhere, or a bug) would make every pass of the
  clock timer and of the beat sweep fail before reaching the battles after it.
- The sweep (and the outage pause, ``games.live.outages``) computes every battle's
  transition inside ``try``; so does the settle-on-read of a page (``games.web.views``). A
  battle that fails is left out of the bulk write and *set aside*: paused with the reason ``unreadable``
  (``REASON_UNREADABLE``), its ``clock_version`` bumped, one ``paused`` ClockEvent
  naming the error, one log line. A paused battle is no longer among the running
  ones the clock reads, so it is neither retried every pass nor a due time the
  timers wake for. A referee (or the players of a casual battle) may resume it; if it
  fails again it is set aside again.
- On the fast path (nothing fails) this costs no query: one statement for all the
  battles set aside in a pass, only when there are some.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import F, Q

from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock

log = logging.getLogger(__name__)

#: ``Battle.paused_reason`` of a battle the clock set aside.
REASON_UNREADABLE = clock.REASON_UNREADABLE


def set_aside(
    failed: Iterable[tuple[int, int, BaseException]], *, via: str, now: datetime
) -> list[int]:
    """Pause every battle of ``failed`` (``(id, clock_version, error)``) that still runs at
    that version; the ids set aside. A SELECT, an UPDATE and an INSERT, in their own
    transaction (or a savepoint of the caller's, whose rows these are)."""
    failed = list(failed)
    if not failed:
        return []
    same = Q(pk__in=[])
    for pk, version, _error in failed:
        same |= Q(pk=pk, clock_version=version)
    with transaction.atomic():
        plies = dict(
            Battle.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(same, status=Battle.Status.RUNNING)
            .values_list("pk", "ply")
        )
        ids = list(plies)
        if not ids:
            return []
        Battle.objects.filter(pk__in=ids).update(
            status=Battle.Status.PAUSED,
            paused_reason=REASON_UNREADABLE,
            paused_remaining_ms=0,
            paused_think_remaining_ms=0,
            turn_started_at=None,
            think_ends_at=None,
            deadline=None,
            touched_square="",
            clock_version=F("clock_version") + 1,
            updated_at=now,
        )
        ClockEvent.objects.bulk_create(
            ClockEvent(
                battle_id=pk,
                ply=plies[pk],
                kind=ClockEvent.Kind.PAUSED,
                applied_at=now,
                via=via,
                detail=_detail(error),
            )
            for pk, _version, error in failed
            if pk in plies
        )
    for pk, _version, error in failed:
        if pk in plies:
            log.error(
                "clock: battle %s set aside (paused, %s): %r",
                pk,
                REASON_UNREADABLE,
                error,
                exc_info=(type(error), error, error.__traceback__),
            )
    return ids


def _detail(error: BaseException) -> str:
    return f"set aside by the clock: {type(error).__name__}: {error}"[:200]
