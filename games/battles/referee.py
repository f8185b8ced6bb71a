"""The referee's actions on a battle: pause, resume, give time, end by decision,
pause every running battle of a round at once, and the beat of the referee's clock page
(``referee_page_seen``: it resumes a battle paused because that page was offline).

Each is a compare-and-set transition of the clock, retried if a move or an expiry landed
in between (``referee_write``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.battles import finishing, store
from games.battles.errors import NotAllowed, StaleVersion
from games.battles.settle import settle
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock


def referee_write(
    battle_id: int,
    change,
    kind: str,
    *,
    now: datetime,
    detail: str = "",
    attempts: int = 3,
    via: str = ClockEvent.Via.REFEREE,
    **extra,
) -> Battle:
    """Apply a referee transition, retrying if a move or expiry landed in between."""
    for _attempt in range(attempts):
        settle(battle_id, via=ClockEvent.Via.READ, now=now)
        with transaction.atomic():
            battle = store.load(battle_id)
            try:
                new = change(battle.clock_state)
            except clock.ClockError as exc:
                raise NotAllowed(_("Not possible in the battle's current state.")) from exc
            if store.write(battle, new, now=now, **extra):
                store.event(battle, kind, now=now, via=via, detail=detail)
                if new.status == clock.FINISHED:
                    finishing.finished(battle, now=now)
                return battle
    raise StaleVersion(_("The battle kept changing; try again."))


def pause(battle_id: int, *, now: datetime, reason: str = clock.REASON_REFEREE) -> Battle:
    return referee_write(
        battle_id,
        lambda s: clock.pause(s, now, reason),
        ClockEvent.Kind.PAUSED,
        now=now,
        detail=reason,
    )


def resume(
    battle_id: int,
    *,
    now: datetime,
    reason: str = "",
    via: str = ClockEvent.Via.REFEREE,
) -> Battle:
    """Resume a pause, or let a battle waiting for a referee continue (fresh turn).
    ``reason`` is kept on the event; a player's ask to resume is spent."""
    return referee_write(
        battle_id,
        lambda s: clock.resume(s, now),
        ClockEvent.Kind.RESUMED,
        now=now,
        detail=reason[:200],
        via=via,
        resume_asked_by="",
        resume_asked_version=None,
    )


def give_time(battle_id: int, *, ms: int, now: datetime) -> Battle:
    return referee_write(
        battle_id,
        lambda s: clock.give_time(s, now, ms),
        ClockEvent.Kind.TIME_GIVEN,
        now=now,
        detail=str(ms),
    )


def referee_decision(battle_id: int, *, reason: str = "", now: datetime) -> Battle:
    """End the battle now by a referee's decision (also resolves ``needs_referee``)."""

    def end(s: clock.ClockState) -> clock.ClockState:
        if s.status in (clock.FINISHED, clock.PENDING):
            raise clock.ClockError("not in play")
        return clock.finish(s, clock.REASON_REFEREE)

    return referee_write(battle_id, end, ClockEvent.Kind.DECISION, now=now, detail=reason[:200])


def pause_round(round_id: int, *, now: datetime) -> int:
    """Pause every running battle of a round at once (one transaction)."""
    paused = 0
    with transaction.atomic():
        ids = list(
            Battle.objects.filter(
                match__round_id=round_id, status=Battle.Status.RUNNING
            ).values_list("pk", flat=True)
        )
        for battle_id in ids:
            try:
                pause(battle_id, now=now)
                paused += 1
            except NotAllowed:
                pass  # finished or waiting for a referee meanwhile
    return paused


def referee_page_seen(battle: Battle, *, by: str, now: datetime) -> Battle | None:
    """A referee's clock page of ``battle`` beat at ``now`` (``by``: whose page): keep the
    time, and resume the battle if it was paused because its referee page was offline
    (``games.rules.referee_presence``): the resumed battle, else None. Any other pause (a referee's
    own, a site outage) is left alone. ``battle`` is the row as the gate just read it."""
    Battle.objects.filter(pk=battle.pk).exclude(status=Battle.Status.FINISHED).update(
        referee_seen_at=now
    )
    if not _paused_offline(battle):
        return None  # the common beat: one UPDATE
    with transaction.atomic():
        current = store.load(battle.pk)
        if not _paused_offline(current):
            return None
        if not store.write(
            current,
            clock.resume(current.clock_state, now),
            now=now,
            resume_asked_by="",
            resume_asked_version=None,
        ):
            return None  # another writer came first: the next beat looks again
        store.event(
            current,
            ClockEvent.Kind.RESUMED,
            now=now,
            via=ClockEvent.Via.REFEREE,
            detail=f"referee page back: {by}"[:200],
        )
    return current


def _paused_offline(battle: Battle) -> bool:
    return (
        battle.status == Battle.Status.PAUSED
        and battle.paused_reason == clock.REASON_REFEREE_OFFLINE
    )
