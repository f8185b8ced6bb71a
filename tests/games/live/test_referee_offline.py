"""The referee clock cannot run without its referee (issue 25), in the database with
``now`` passed: an over-the-board battle whose referee page has not beaten for longer
than the threshold is paused by the sweep, forfeiting nothing; the page's next beat
resumes it; other pauses are not the beat's to end.

The real processes and chromium going offline are in
``tests/browser/test_referee_offline_browser.py``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.battles.referee import pause, referee_page_seen
from games.battles.settle import settle
from games.battles.starting import create_battles, start_battle
from games.live import outages, referees, sweep
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from games.rules.referee_presence import THRESHOLD_MS
from tests.factories import make_match

pytestmark = pytest.mark.django_db

LONG = {"think_ms": 15_000, "move_ms": 5_000, "grace_ms": 300}


def ms(n: int) -> timedelta:
    return timedelta(milliseconds=n)


def running_otb(n: int = 1, **fields) -> list[Battle]:
    out = []
    for m in make_match(tables=n, **fields):
        b1, _ = create_battles(m, mode=Battle.Mode.OTB, now=timezone.now())
        out.append(start_battle(b1.pk, now=timezone.now()))
    return out


def beat(b: Battle, at, by: str = "ref") -> Battle | None:
    """A referee page's beat, with the battle as the gate would read it."""
    return referee_page_seen(Battle.objects.get(pk=b.pk), by=by, now=at)


def fresh(b: Battle) -> Battle:
    return Battle.objects.get(pk=b.pk)


def test_a_battle_pauses_once_its_page_is_unseen_for_longer_than_the_threshold_not_before():
    (b,) = running_otb(**LONG)
    t = b.turn_started_at
    beat(b, t)
    assert sweep.sweep(read_clock=lambda: t + ms(THRESHOLD_MS)) == 0
    assert fresh(b).status == clock.RUNNING
    assert sweep.sweep(read_clock=lambda: t + ms(THRESHOLD_MS + 1)) == 1
    after = fresh(b)
    assert (after.status, after.paused_reason) == (clock.PAUSED, clock.REASON_REFEREE_OFFLINE)
    assert after.paused_remaining_ms == 20_000  # the whole turn, replayed on resume
    event = ClockEvent.objects.get(battle=b, kind=clock.REASON_REFEREE_OFFLINE)
    assert event.detail == f"referee page last seen {t.isoformat()}"
    assert after.reason_display == "the referee's clock page is offline: the turn will be replayed"


def test_no_turn_is_forfeited_while_the_page_is_offline_and_its_beat_resumes_a_fresh_turn():
    (b,) = running_otb()  # 1.5 s turns: two would expire in the 3 s the page is away
    t = b.turn_started_at
    beat(b, t)
    due = clock.due_at(b.clock_state)
    # Due, but the page has not beaten since the deadline: the expiry waits for it.
    assert settle(b.pk, via="read", now=due + ms(100)).ply == 0
    assert sweep.sweep(read_clock=lambda: due + ms(100)) == 0
    away = t + ms(THRESHOLD_MS + 500)
    assert settle(b.pk, via="read", now=away).status == clock.RUNNING  # left to the sweep
    assert sweep.sweep(read_clock=lambda: away) == 1
    assert sweep.sweep(read_clock=lambda: away + ms(60_000)) == 0  # still away: nothing
    assert not Move.objects.filter(battle=b).exists()
    back = away + ms(60_000)
    resumed = beat(b, back, by="ref2")
    assert resumed is not None
    after = fresh(b)
    assert (after.status, after.ply, after.paused_reason) == (clock.RUNNING, 0, "")
    assert after.deadline == back + ms(1_500)
    assert after.referee_seen_at == back
    event = ClockEvent.objects.filter(battle=b, kind=ClockEvent.Kind.RESUMED).get()
    assert (event.via, event.detail) == (ClockEvent.Via.REFEREE, "referee page back: ref2")


def test_an_expiry_applies_at_once_after_a_beat_past_its_deadline():
    (b,) = running_otb()
    beat(b, b.deadline + ms(10))
    after = settle(b.pk, via="read", now=clock.due_at(b.clock_state) + ms(20))
    assert after.ply == 1 and Move.objects.get(battle=b).kind == Move.Kind.FORFEIT


def test_a_referees_own_pause_is_not_resumed_by_a_beat():
    (b,) = running_otb(**LONG)
    beat(b, b.turn_started_at)
    pause(b.pk, now=b.turn_started_at + ms(10))
    assert beat(b, b.turn_started_at + ms(20_000)) is None
    assert fresh(b).paused_reason == clock.REASON_REFEREE
    assert sweep.sweep(read_clock=lambda: b.turn_started_at + ms(60_000)) == 0
    assert fresh(b).status == clock.PAUSED


def test_a_battle_never_seen_by_a_referee_page_is_never_paused_for_it():
    (b,) = running_otb(**LONG)
    assert b.referee_seen_at is None
    assert sweep.sweep(read_clock=lambda: b.turn_started_at + ms(10_000)) == 0
    assert fresh(b).status == clock.RUNNING


def test_a_site_outage_comes_first_and_the_page_then_resumes_its_own_pause():
    (b,) = running_otb(**LONG)
    t = b.turn_started_at
    outages.beat("web:1", now=t)
    beat(b, t)
    down = t + ms(THRESHOLD_MS + 1)
    assert sweep.sweep(read_clock=lambda: down) == 1
    assert fresh(b).paused_reason == clock.REASON_OUTAGE
    # A beat during the outage keeps the time but does not end the site's pause.
    assert beat(b, down + ms(100)) is None
    assert fresh(b).paused_reason == clock.REASON_OUTAGE
    # The site is back, the page is not: the outage ends and the page's pause begins.
    back = down + ms(30_000)
    outages.beat("web:1", now=back)
    assert sweep.sweep(read_clock=lambda: back) == 2
    after = fresh(b)
    assert (after.status, after.paused_reason) == (clock.PAUSED, clock.REASON_REFEREE_OFFLINE)
    assert beat(b, back + ms(500)) is not None
    assert fresh(b).status == clock.RUNNING
    assert not Move.objects.filter(battle=b).exists()


def test_a_finished_battle_keeps_no_beat():
    (b,) = running_otb(**LONG)
    Battle.objects.filter(pk=b.pk).update(status=clock.FINISHED)
    assert beat(b, b.turn_started_at) is None
    assert fresh(b).referee_seen_at is None


def test_the_check_is_one_query_when_every_page_is_there(django_assert_num_queries):
    battles = running_otb(20, **LONG)
    now = timezone.now()
    for b in battles:
        beat(b, now)
    with django_assert_num_queries(1):
        assert referees.check(via="sweep", now=now + ms(THRESHOLD_MS)) == 0
    Battle.objects.all().update(referee_seen_at=None)
    with django_assert_num_queries(1):  # no page ever seen: the same single query
        assert referees.check(via="sweep", now=now) == 0
