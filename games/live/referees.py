"""Over-the-board battles whose referee's clock page is offline: paused by the sweep.

Terminology and invariants (``games.rules.referee_presence``, README "When something is down"):
- The referee's clock page of an over-the-board battle beats every second
  (``games.battles.referee.referee_page_seen`` keeps ``Battle.referee_seen_at``).
- Every tick of the clock (the timers' passes and the beat sweep), after the site's
  outages (``games.live.outages.check``), calls ``check``: every running battle whose
  page was seen but not for longer than ``referee_presence.THRESHOLD_MS`` is paused for
  ``referee_offline``, its turn to be replayed (``clock.outage_pause``). A bulk write
  of locked rows (``games.live.bulk``), as for an outage; a row another writer holds
  waits for the next tick.
- When nothing is offline (nearly every tick) ``check`` is one query on a partial index
  (``battle_referee_seen``: running battles a page was seen for), which finds nothing.
- Resuming is the page's: its next beat resumes the battle (``referee_page_seen``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games.live import bulk
from games.models.battle import Battle
from games.rules import clock, referee_presence


def _offline(now: datetime):
    return Battle.objects.filter(
        status=Battle.Status.RUNNING,
        referee_seen_at__lt=referee_presence.offline_before(now),
    )


def check(*, via: str, now: datetime) -> int:
    """Pause every running battle whose referee page is offline at ``now``; how many."""
    if not _offline(now).exists():  # every tick asks; almost always nothing to do
        return 0
    with transaction.atomic():
        locked = (
            _offline(now)
            .filter(mode=Battle.Mode.OTB)
            .select_for_update(skip_locked=True, of=("self",))
        )
        transitions = [
            bulk.Transition(
                battle,
                clock.outage_pause(
                    battle.clock_state, battle.referee_seen_at, clock.REASON_REFEREE_OFFLINE
                ),
                clock.REASON_REFEREE_OFFLINE,
                clock.due_at(battle.clock_state),
                detail=_seen_detail(battle.referee_seen_at),
            )
            for battle in locked
            # Locked rows are read again after the lock: a beat may have landed first.
            if referee_presence.offline(battle.referee_seen_at, now)
        ]
        return len(bulk.write(transitions, via=via, now=now))


def _seen_detail(seen: datetime | None) -> str:
    return f"referee page last seen {seen.isoformat()}" if seen else ""
