"""One battle the clock cannot settle never stops it for the others (issue 40,
games/live/quarantine.py): the timer's pass and the sweep set it aside once (paused,
``unreadable``, one ClockEvent, one log line) and settle every other due battle."""

from __future__ import annotations

import logging

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import thud
from games.battles.starting import create_battles, start_battle
from games.live import outages, quarantine, sweep, timer
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from tests.factories import make_match
from tests.games.live.test_sweep import ms, recording, running_battles
from tests.processes import wait_for

pytestmark = pytest.mark.django_db


def poisoned(now) -> int:
    """A running online battle, due long ago, with a board no engine reads and an outage
    threshold so large that its expiry is a forfeit (as an imported archive made it)."""
    (pk,) = running_battles(1, now)
    Battle.objects.filter(pk=pk).update(
        mode=Battle.Mode.ONLINE,
        board="not a board",
        outage_threshold_ms=2_000_000_000,
        deadline=now - ms(60_000),
    )
    return pk


def online_due(now) -> int:
    (pk,) = running_battles(1, now)
    Battle.objects.filter(pk=pk).update(
        mode=Battle.Mode.ONLINE, board=thud.Position.initial().to_diagram()
    )
    return pk


def test_a_timer_pass_sets_an_unreadable_battle_aside_and_settles_the_others(monkeypatch, caplog):
    recording(monkeypatch)
    now = timezone.now()
    bad = poisoned(now)
    online = online_due(now)
    otb = running_battles(3, now)
    loop = timer.Timer()
    with caplog.at_level(logging.ERROR):
        loop._pass()
        loop._pass()
    assert loop.passes == 2  # no pass failed
    assert not [r for r in caplog.records if "pass failed" in r.getMessage()]
    # The others' expiries are applied, the online one through the engine.
    assert Battle.objects.get(pk=online).ply == 1
    assert set(Battle.objects.filter(pk__in=otb).values_list("ply", flat=True)) == {1}
    b = Battle.objects.get(pk=bad)
    assert (b.status, b.paused_reason, b.clock_version, b.ply) == (
        clock.PAUSED,
        quarantine.REASON_UNREADABLE,
        2,
        0,
    )
    assert b.deadline is None and b.board == "not a board"
    (event,) = ClockEvent.objects.filter(battle_id=bad)
    assert (event.kind, event.via) == (ClockEvent.Kind.PAUSED, ClockEvent.Via.TIMER)
    assert event.detail.startswith("set aside by the clock:")
    assert not Move.objects.filter(battle_id=bad).exists()
    # Logged once, not once a pass; and no longer a due time a timer wakes for.
    set_aside = [r for r in caplog.records if f"battle {bad} set aside" in r.getMessage()]
    assert len(set_aside) == 1
    assert timer.next_due() is None or timer.next_due() > now


def test_the_bulk_pass_sets_aside_a_battle_it_cannot_compute(monkeypatch):
    """An over-the-board battle whose transition cannot be computed is left out of the
    bulk write; the others of the same pass are written."""
    recording(monkeypatch)
    now = timezone.now()
    ids = running_battles(4, now)
    bad = ids[1]
    Battle.objects.filter(pk=bad).update(ply=13)
    real = clock.resolve_timeout

    def failing(state, at, seen):
        if state.ply == 13:
            raise OverflowError("date value out of range")
        return real(state, at, seen)

    monkeypatch.setattr(sweep.clock, "resolve_timeout", failing)
    assert sweep.sweep(read_clock=lambda: now) == 4
    assert Battle.objects.get(pk=bad).status == clock.PAUSED
    others = Battle.objects.filter(pk__in=ids).exclude(pk=bad)
    assert set(others.values_list("ply", "status")) == {(1, clock.RUNNING)}
    assert "OverflowError" in ClockEvent.objects.get(battle_id=bad).detail
    assert sweep.sweep(read_clock=lambda: now) == 0  # not retried


def test_setting_aside_adds_no_statement_to_a_pass_where_nothing_fails(monkeypatch):
    recording(monkeypatch)
    now = timezone.now()
    counts = []
    for n in (5, 50):
        running_battles(n, now)
        with CaptureQueriesContext(connection) as ctx:
            assert sweep.sweep(read_clock=lambda: now) == n
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
    with CaptureQueriesContext(connection) as ctx:
        sweep.sweep(read_clock=lambda: now)  # nothing due
    idle = len(ctx.captured_queries)
    assert counts[0] <= idle + 5  # the five statements of a pass that writes (sweep.py)


@pytest.mark.clock
@pytest.mark.django_db(transaction=True)
def test_a_poisoned_battle_beside_a_running_one_leaves_its_expiry_on_time(cluster_factory):
    """Real clock worker and beat: a battle that cannot be settled (running, long past
    its deadline, an unreadable board) sits in the database before an online battle;
    that battle's turn still expires on time, and the poisoned one is set aside once."""
    bad = poisoned(timezone.now())
    (m,) = make_match(tables=1, variant="timed24", outage_threshold_ms=60_000)
    b1, _ = create_battles(m, mode=Battle.Mode.ONLINE, now=timezone.now())
    cluster_factory(workers=1)
    b = start_battle(b1.pk, now=timezone.now())  # think 1 s + move 0.5 s + grace 50 ms
    due = b.deadline + ms(b.grace_ms)
    expired = wait_for(
        lambda: ClockEvent.objects.filter(battle=b, kind=clock.TURN_EXPIRED).first(),
        timeout=30,
        what="the online battle's expiry",
    )
    assert expired.due_at == due
    assert 0 <= expired.lateness_ms < 3000, expired.lateness_ms
    assert expired.via in (ClockEvent.Via.TIMER, ClockEvent.Via.SWEEP)
    after = Battle.objects.get(pk=b.pk)
    assert after.ply == 1 and after.board != b.board  # the engine passed the turn
    poison = Battle.objects.get(pk=bad)
    assert (poison.status, poison.paused_reason) == (clock.PAUSED, quarantine.REASON_UNREADABLE)
    assert ClockEvent.objects.filter(battle_id=bad).count() == 1


def test_an_outage_pause_sets_aside_a_battle_it_cannot_compute_and_pauses_the_others(
    monkeypatch,
):
    recording(monkeypatch)
    now = timezone.now()
    ids = running_battles(3, now + ms(60_000))  # deadlines a minute ahead: none due
    bad = ids[0]
    Battle.objects.filter(pk=bad).update(ply=13)
    real = clock.site_down

    def failing(state, at, seen):
        if state.ply == 13:
            raise OverflowError("date value out of range")
        return real(state, at, seen)

    monkeypatch.setattr(outages.clock, "site_down", failing)
    seen = now - ms(10_000)  # the site unseen for 10 s: an outage for every battle
    assert outages.pause_unreachable(via=ClockEvent.Via.TIMER, now=now, seen=seen) == 3
    b = Battle.objects.get(pk=bad)
    assert (b.status, b.paused_reason) == (clock.PAUSED, quarantine.REASON_UNREADABLE)
    others = Battle.objects.filter(pk__in=ids).exclude(pk=bad)
    assert set(others.values_list("status", "paused_reason")) == {
        (clock.PAUSED, clock.REASON_OUTAGE)
    }
