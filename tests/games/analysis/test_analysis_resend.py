"""Analyses lost to a broker outage (``games.analysis.runs.lost`` and the beat's task
``analysis.resend``, called in this process against the real database and a queue of this
test's own on the real Redis), and a run taken over storing nothing."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from redis import Redis

from games.analysis import runs as analysis_runs
from games.analysis import tasks
from games.models.analysis import BattleAnalysis
from tests.games.analysis_helpers import MS, Tick, played_battle

pytestmark = pytest.mark.django_db
Status = BattleAnalysis.Status


@pytest.fixture
def user():
    return get_user_model().objects.create_user("analyst", password="pw-analyst-123")


@pytest.fixture
def analysis_queue(settings):
    """The analysis queue of this test (no worker reads it): ``sent()`` reads back the
    battle ids of the ``bots.analyse`` messages waiting there."""
    queue = f"test-analysis-{uuid.uuid4().hex}"
    settings.THUD_ANALYSIS_QUEUE = queue
    redis = Redis.from_url(settings.CELERY_BROKER_URL)

    def sent() -> list[int]:
        headers = [json.loads(m)["headers"] for m in reversed(redis.lrange(queue, 0, -1))]
        assert all(h["task"] == "bots.analyse" for h in headers)
        return [json.loads(h["argsrepr"])[0] for h in headers]

    yield sent
    redis.delete(queue, f"_kombu.binding.{queue}")


def queued(user, *, ago: timedelta):
    """A finished battle with its analysis asked for ``ago`` (its message never sent)."""
    battle = played_battle(("d F1-F5",))
    analysis_runs.request_analysis(battle, user, now=timezone.now() - ago)
    return battle


def test_lost_names_stale_analyses_oldest_first_and_none_while_one_runs(user):
    stale = analysis_runs.RESEND_AFTER + timedelta(seconds=1)
    older = queued(user, ago=stale * 2)
    old = queued(user, ago=stale)
    queued(user, ago=timedelta(seconds=1))  # just asked for: its message may be on its way
    now = timezone.now()
    assert analysis_runs.lost(now=now) == [(older.pk, 2), (old.pk, 2)]
    # One runs (its worker is at the queue): nothing is sent until it is done.
    running = queued(user, ago=stale)
    BattleAnalysis.objects.filter(battle=running).update(status=Status.RUNNING, started_at=now)
    assert analysis_runs.lost(now=now) == []
    # Its worker died (running past its hard limit): it is lost too, ordered by its start
    # (here before the others were asked for).
    hard = analysis_runs.time_limits(2)[1]
    dead = now - timedelta(seconds=hard) - stale * 2
    BattleAnalysis.objects.filter(battle=running).update(started_at=dead)
    assert analysis_runs.lost(now=now) == [(running.pk, 2), (older.pk, 2), (old.pk, 2)]
    BattleAnalysis.objects.filter(battle=running).update(status=Status.DONE)
    assert analysis_runs.lost(now=now) == [(older.pk, 2), (old.pk, 2)]


def test_the_beat_resends_a_lost_analysis_once_its_queue_is_empty_and_only_then(
    user, analysis_queue
):
    battle = queued(user, ago=analysis_runs.RESEND_AFTER)
    assert analysis_queue() == []
    assert tasks.analysis_resend.run() == 1
    assert analysis_queue() == [battle.pk]
    # Its message now waits in the queue: the next looks send nothing more.
    assert tasks.analysis_resend.run() == 0
    assert tasks.analysis_resend.run() == 0
    assert analysis_queue() == [battle.pk]
    assert BattleAnalysis.objects.get(battle=battle).status == Status.QUEUED


def test_the_beat_leaves_an_analysis_waiting_behind_others_in_its_queue(user, analysis_queue):
    waiting = queued(user, ago=analysis_runs.RESEND_AFTER)
    tasks.publish_analysis(waiting.pk, 2)  # its message is there, behind nothing here
    lost = queued(user, ago=analysis_runs.RESEND_AFTER)
    assert tasks.analysis_resend.run() == 0  # the queue is not empty: a worker will get there
    assert analysis_queue() == [waiting.pk]
    assert lost.pk not in analysis_queue()


def test_a_resent_analysis_run_twice_stores_one_result(user):
    battle = queued(user, ago=analysis_runs.RESEND_AFTER)
    assert (
        analysis_runs.run_analysis(
            battle.pk, now=timezone.now(), clock=Tick(), read_now=timezone.now, ms=MS
        )
        == Status.DONE
    )
    stored = BattleAnalysis.objects.get(battle=battle)
    # The original message, delivered after the resent one: it runs nothing.
    assert (
        analysis_runs.run_analysis(
            battle.pk, now=timezone.now(), clock=Tick(), read_now=timezone.now, ms=5
        )
        == "skipped"
    )
    again = BattleAnalysis.objects.get(battle=battle)
    assert (again.finished_at, again.ms_per_position, again.plies) == (
        stored.finished_at,
        MS,
        stored.plies,
    )


def test_a_run_taken_over_meanwhile_stores_nothing(user):
    """A slow run's row is taken over (its hard limit passed: its worker looked dead); when
    the slow run ends after all, the row is the other run's and its result is dropped."""
    battle = queued(user, ago=timedelta(0))
    started = timezone.now()
    later = started + timedelta(seconds=analysis_runs.time_limits(2)[1] + 1)
    tick = Tick()

    def clock() -> float:
        if tick.now == 0:  # mid-search, a second delivery takes the row over
            assert analysis_runs._claim(battle.pk, now=later) == later
        return tick()

    assert (
        analysis_runs.run_analysis(
            battle.pk, now=started, clock=clock, read_now=timezone.now, ms=MS
        )
        == "superseded"
    )
    row = BattleAnalysis.objects.get(battle=battle)
    assert (row.status, row.started_at, row.plies, row.finished_at) == (
        Status.RUNNING,
        later,
        [],
        None,
    )


def test_the_beat_looks_for_lost_analyses_on_the_default_queue(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["analysis-resend"]
    assert entry["task"] == tasks.analysis_resend.name == "analysis.resend"
    # Never behind a minute-long analysis, and well under the wait it looks for.
    assert entry["options"]["queue"] == settings.CELERY_TASK_DEFAULT_QUEUE
    assert entry["schedule"] <= analysis_runs.RESEND_AFTER.total_seconds()
