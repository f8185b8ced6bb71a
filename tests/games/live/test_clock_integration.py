"""The clock against real processes: Celery worker(s) and beat as subprocesses, a real
Redis, and faults injected on purpose (reference/clocks-architecture.md §6.4).

Scaled phases: think 1.0 s, move 0.5 s, grace 50 ms. Counts are asserted exactly;
time only against generous fault bounds (the bench reports the real lateness).
"""

from __future__ import annotations

import random
import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.battles.errors import BattleError
from games.battles.play import submit_move
from games.battles.referee import pause, resume
from games.battles.settle import settle
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from tests.factories import make_match
from tests.processes import wait_for

pytestmark = [pytest.mark.clock, pytest.mark.django_db(transaction=True)]


def start_battles(n: int, *, max_plies: int, stagger_ms: int = 1500, **fields) -> list[int]:
    matches = make_match(
        tables=n,
        move_unit="ply",
        variant="timed24",
        max_consecutive_forfeits=99,
        outage_threshold_ms=60_000,
        **fields,
    )
    ids = []
    for m in matches:
        b1, _ = create_battles(m, mode=Battle.Mode.OTB, now=timezone.now())
        Battle.objects.filter(pk=b1.pk).update(max_plies=max_plies)
        ids.append(b1.pk)
    for battle_id in ids:
        start_battle(battle_id, now=timezone.now())
        time.sleep(random.uniform(0, 2 * stagger_ms) / 1000 / n)
    return ids


def all_finished(ids: list[int]) -> bool:
    return not Battle.objects.filter(pk__in=ids).exclude(status="finished").exists()


def expiry_stats(ids: list[int]) -> dict:
    events = list(ClockEvent.objects.filter(battle_id__in=ids, kind=clock.TURN_EXPIRED))
    late = sorted(e.lateness_ms for e in events)
    pick = lambda q: late[min(len(late) - 1, int(q * len(late)))] if late else 0  # noqa: E731
    by_via: dict[str, int] = {}
    for e in events:
        by_via[e.via] = by_via.get(e.via, 0) + 1
    return {
        "applied": len(events),
        "distinct": len({(e.battle_id, e.ply) for e in events}),
        "p50_ms": pick(0.5),
        "p99_ms": pick(0.99),
        "max_ms": late[-1] if late else 0,
        "via": by_via,
    }


def assert_exact(ids: list[int], plies: int) -> dict:
    stats = expiry_stats(ids)
    expected = len(ids) * plies
    assert stats["applied"] == stats["distinct"] == expected, stats
    assert Move.objects.filter(battle_id__in=ids, kind="forfeit").count() == expected
    assert set(Battle.objects.filter(pk__in=ids).values_list("ply", flat=True)) == {plies}
    assert not ClockEvent.objects.filter(battle_id__in=ids, kind=clock.OUTAGE_PAUSE).exists()
    return stats


def test_t1_all_forfeit_battles_finish_with_exactly_one_expiry_per_ply(cluster_factory):
    cluster_factory(workers=1)
    ids = start_battles(30, max_plies=6)
    wait_for(lambda: all_finished(ids), timeout=90, interval=0.5, what="30 battles to finish")
    stats = assert_exact(ids, 6)
    print("T1", stats)
    assert stats["max_ms"] <= 6000
    # The worker's clock timer settles them at their due time; the beat sweep, a second
    # apart, gets there first only by chance.
    assert stats["via"].get("timer", 0) >= 0.8 * stats["applied"], stats["via"]


def test_t2_worker_sigkill_mid_run_loses_and_duplicates_nothing(cluster_factory):
    cluster = cluster_factory(workers=2)
    ids = start_battles(30, max_plies=6)
    time.sleep(3)
    cluster.workers[0].kill(restart=True)
    wait_for(lambda: all_finished(ids), timeout=90, interval=0.5, what="battles to finish")
    stats = assert_exact(ids, 6)
    print("T2", stats, "restarts", cluster.workers[0].restarts)
    assert cluster.workers[0].restarts >= 1
    assert stats["max_ms"] <= 6000


def test_t3_redis_restart_mid_run_still_finishes_every_battle_exactly(
    cluster_factory, throwaway_redis
):
    cluster_factory(workers=2, redis_url=throwaway_redis.url)
    ids = start_battles(30, max_plies=6)
    time.sleep(3)
    downtime = throwaway_redis.restart(1.0)
    wait_for(lambda: all_finished(ids), timeout=120, interval=0.5, what="battles to finish")
    stats = assert_exact(ids, 6)
    print("T3", stats, "downtime_s", round(downtime, 2))
    assert stats["max_ms"] <= downtime * 1000 + 6000


def test_t4_move_racing_the_expiry_has_exactly_one_outcome(cluster_factory):
    cluster_factory(workers=1)
    ids = start_battles(20, max_plies=6)
    accepted: dict[tuple[int, int], bool] = {}
    lock = threading.Lock()

    def player(battle_id: int) -> None:
        try:
            while True:
                b = Battle.objects.get(pk=battle_id)
                if b.status != "running":
                    return
                due = b.deadline + timedelta(milliseconds=b.grace_ms)
                target = due + timedelta(milliseconds=random.uniform(-20, 20))
                time.sleep(max(0.0, (target - timezone.now()).total_seconds()))
                try:
                    submit_move(
                        battle_id, side=b.side_to_move, version=b.clock_version, now=timezone.now()
                    )
                    ok = True
                except BattleError:
                    ok = False
                with lock:
                    # A refusal can also come from a version bumped by the expiry: one
                    # trial per ply, the first answer counts.
                    accepted.setdefault((battle_id, b.ply), ok)
                wait_for(
                    lambda ply=b.ply: (
                        Battle.objects.get(pk=battle_id).ply > ply
                        or Battle.objects.get(pk=battle_id).status != "running"
                    ),
                    timeout=30,
                    interval=0.02,
                    what="the turn to resolve",
                )
        finally:
            connection.close()

    threads = [threading.Thread(target=player, args=(i,)) for i in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    wait_for(lambda: all_finished(ids), timeout=60, what="battles to finish")
    moves = {(m.battle_id, m.ply): m.kind for m in Move.objects.filter(battle_id__in=ids)}
    expiries = {
        (e.battle_id, e.ply)
        for e in ClockEvent.objects.filter(battle_id__in=ids, kind=clock.TURN_EXPIRED)
    }
    assert len(moves) == 20 * 6
    for key, kind in moves.items():
        assert (kind == "forfeit") == (key in expiries), key
        if key in accepted:
            assert accepted[key] == (kind == "otb"), key
    outcomes = set(moves.values())
    print("T4 trials", len(accepted), "moves", sum(1 for k in moves.values() if k == "otb"))
    assert outcomes <= {"otb", "forfeit"}


def test_t5_pause_resume_keeps_remaining_time_and_the_old_due_time_is_a_no_op(cluster_factory):
    cluster_factory(workers=1)
    [battle_id] = start_battles(1, max_plies=4, stagger_ms=0)
    time.sleep(0.2)  # well inside the 1.5 s turn, even on a busy machine
    paused_at = timezone.now()
    b = pause(battle_id, now=paused_at)
    remaining = b.paused_remaining_ms
    time.sleep(3 * 1.5)  # three turn lengths: the timer's old due time passes, no expiry
    b = Battle.objects.get(pk=battle_id)
    assert (b.status, b.ply) == ("paused", 0)
    assert not ClockEvent.objects.filter(battle_id=battle_id, kind=clock.TURN_EXPIRED).exists()
    resumed_at = timezone.now()
    b = resume(battle_id, now=resumed_at)
    assert abs(clock.remaining_ms(b.clock_state, resumed_at) - remaining) <= 50
    wait_for(
        lambda: Battle.objects.get(pk=battle_id).ply == 1,
        timeout=20,
        what="the resumed turn to expire",
    )
    assert ClockEvent.objects.filter(battle_id=battle_id, kind=clock.TURN_EXPIRED).count() == 1


def test_t6_an_expiry_found_late_pauses_the_battle_and_replays_the_turn(cluster_factory):
    cluster = cluster_factory(workers=1)
    for p in (*cluster.workers, cluster.beat):
        p.kill(restart=False)
    matches = make_match(outage_threshold_ms=1000)
    b1, _ = create_battles(matches[0], mode=Battle.Mode.OTB, now=timezone.now())
    b = start_battle(b1.pk, now=timezone.now())
    time.sleep((1550 + 1000 + 500) / 1000)  # past deadline + grace + outage threshold
    for p in (*cluster.workers, cluster.beat):
        p.start(wait=False)
    resumed = wait_for(
        lambda: ClockEvent.objects.filter(battle=b, kind=ClockEvent.Kind.RESUMED).first(),
        timeout=60,
        what="the outage pause and its resume",
    )
    paused = ClockEvent.objects.get(battle=b, kind=clock.OUTAGE_PAUSE)
    assert paused.ply == 0 and paused.applied_at <= resumed.applied_at
    assert resumed.detail == "outage over"
    assert not Move.objects.filter(battle=b, submitted_at__lte=resumed.applied_at).exists()


def test_t7_without_worker_and_beat_the_read_path_enforces_the_deadline(cluster_factory):
    cluster_factory(workers=0, start=False)  # no Celery process at all
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    [battle_id] = start_battles(1, max_plies=4, stagger_ms=0)
    time.sleep(1.7)  # past deadline + grace
    with pytest.raises(BattleError):
        submit_move(battle_id, side="dwarf", version=1, now=timezone.now())
    for _ in range(3):
        settle(battle_id, via="read", now=timezone.now())
    b = Battle.objects.get(pk=battle_id)
    assert (b.ply, b.side_to_move) == (1, "troll")
    events = ClockEvent.objects.filter(battle_id=battle_id, kind=clock.TURN_EXPIRED)
    assert [e.via for e in events] == ["read"]
    assert list(Move.objects.filter(battle_id=battle_id).values_list("kind", flat=True)) == [
        "forfeit"
    ]
