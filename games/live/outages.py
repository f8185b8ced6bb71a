"""Outages judged from the players' side: web heartbeats, and what they decide.

Terminology and invariants (DESIGN.md §5, README "When something is down"):
- A *heartbeat* is a ``WebHeartbeat`` row that one web process (a gunicorn worker,
  or the uvicorn of ``make run``) writes every ``HEARTBEAT_S`` while it reaches both
  the database and Redis (``front.heartbeat``). The site was *seen up* at the
  newest heartbeat (``site_seen_at``); ``None`` means no web process ever wrote one
  (a test client, a command), and nothing is then judged an outage.
- Every tick of the clock (the timers' passes and the beat sweep) calls ``check``:
  - while the site has been unseen for longer than a battle's outage threshold
    (``clock.site_down``: 3 s, or 1/100 of a long turn), that running battle is
    paused for ``server_outage``, its turn to be replayed (``clock.outage_pause``);
  - once the site is seen up again (a heartbeat within ``UP_S``), every battle
    paused for an outage resumes (``clock.resume``), with a fresh turn.
  Both are bulk writes of locked rows (``games.live.bulk``): ten thousand battles pause
  in one statement, and a row another writer holds waits for the next tick.
- An expiry waits for a heartbeat newer than its deadline (``clock.resolve_timeout``),
  so the first seconds of an outage, before it is declared, forfeit nothing either.
- Times are the writers' wall clocks: the nodes' clocks must agree (NTP), as the
  deadlines already assume.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from games.live import bulk, quarantine
from games.models.battle import Battle
from games.models.heartbeat import WebHeartbeat, site_seen_at
from games.models.history import ClockEvent
from games.rules import clock

#: How often a web process writes its heartbeat: shorter than the grace (300 ms), so
#: the heartbeat after a deadline is there by the time its expiry falls due.
HEARTBEAT_S = 0.2
#: The site counts as up again when a heartbeat is at most this old.
UP_S = 1.0
#: Rows of processes unseen for this long are deleted (a new process's first heartbeat).
FORGET_AFTER = timedelta(days=1)
#: The shortest outage threshold of any battle (``ClockConfig.outage_threshold_ms``).
MIN_THRESHOLD = timedelta(milliseconds=clock.ClockConfig().outage_threshold_ms)


def beat(name: str, *, now: datetime) -> None:
    """Record that the web process ``name`` reaches the database and Redis at ``now``."""
    if not WebHeartbeat.objects.filter(name=name).update(seen_at=now):
        # A new process: its first heartbeat also clears the rows of long-gone ones.
        WebHeartbeat.objects.filter(seen_at__lt=now - FORGET_AFTER).delete()
        WebHeartbeat.objects.update_or_create(name=name, defaults={"seen_at": now})


def check(*, via: str, now: datetime) -> tuple[datetime | None, int]:
    """Pause or resume for outages; the time the site was last seen, and how many
    battles changed."""
    seen = site_seen_at()
    if seen is not None and now - seen > MIN_THRESHOLD:
        return seen, pause_unreachable(via=via, now=now, seen=seen)
    if seen is None or now - seen <= timedelta(seconds=UP_S):
        return seen, resume_reachable(via=via, now=now)
    return seen, 0


def pause_unreachable(*, via: str, now: datetime, seen: datetime | None) -> int:
    """Pause every running timed battle whose players have not reached the site for
    longer than its threshold."""
    with transaction.atomic():
        running = Battle.objects.select_for_update(skip_locked=True, of=("self",)).filter(
            status=Battle.Status.RUNNING, deadline__isnull=False
        )
        transitions = []
        failed: list[tuple[int, int, BaseException]] = []
        for battle in running:
            try:
                state = battle.clock_state
                if clock.site_down(state, now, seen):
                    transitions.append(
                        bulk.Transition(
                            battle,
                            clock.outage_pause(state, seen),
                            clock.OUTAGE_PAUSE,
                            clock.due_at(state),
                            detail=_seen_detail(seen),
                        )
                    )
            except Exception as error:  # one battle never stops the others (issue 40)
                failed.append((battle.pk, battle.clock_version, error))
        set_aside = quarantine.set_aside(failed, via=via, now=now)
        return len(bulk.write(transitions, via=via, now=now)) + len(set_aside)


def resume_reachable(*, via: str, now: datetime) -> int:
    """Resume every battle paused for an outage (the site is reachable again).

    A battle paused after ``now`` (another tick, whose clock read came later, paused it
    while this one waited) waits for the next tick: a turn never resumes before its
    pause."""
    paused_for_outage = {
        "status": Battle.Status.PAUSED,
        "paused_reason": clock.REASON_OUTAGE,
        "updated_at__lte": now,
    }
    if not Battle.objects.filter(**paused_for_outage).exists():  # almost always nothing
        return 0
    with transaction.atomic():
        paused = Battle.objects.select_for_update(skip_locked=True, of=("self",)).filter(
            **paused_for_outage
        )
        transitions = [
            bulk.Transition(
                b, clock.resume(b.clock_state, now), ClockEvent.Kind.RESUMED, detail="outage over"
            )
            for b in paused
        ]
        return len(bulk.write(transitions, via=via, now=now))


def _seen_detail(seen: datetime | None) -> str:
    return f"site last seen {seen.isoformat()}" if seen else "expiry found late"
