"""Asking for an analysis and running it (games.analysis.runs, and the task function
``games.analysis.tasks.analyse`` called in-process): once per battle, compare-and-set states,
failures kept and queued again, a limit per user per hour. The real engine searches;
the fake clock only bounds it by nodes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.analysis import runs as analysis_runs
from games.analysis import tasks
from games.analysis.runs import Asked
from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from tests.games.analysis_helpers import MS, Tick, played_battle

pytestmark = pytest.mark.django_db
Status = BattleAnalysis.Status


@pytest.fixture
def user():
    return get_user_model().objects.create_user("analyst", password="pw-analyst-123")


@pytest.fixture
def battle():
    return played_battle(ONE_MOVE)


#: What the state machine's tests play: one move (two positions to search), searched
#: briefly (the rows do not matter there).
ONE_MOVE = ("d F1-F5",)


def run(battle_id: int, *, now=None, ms: int = 5) -> str:
    return analysis_runs.run_analysis(
        battle_id, now=now or timezone.now(), clock=Tick(), read_now=timezone.now, ms=ms
    )


def test_a_request_queues_once_and_a_second_changes_nothing(battle, user):
    now = timezone.now()
    stored, asked = analysis_runs.request_analysis(battle, user, now=now)
    assert asked is Asked.QUEUED and stored is not None and stored.status == Status.QUEUED
    assert (stored.requested_by, stored.requested_at) == (user, now)
    other = get_user_model().objects.create_user("other", password="pw-other-12345")
    again, asked = analysis_runs.request_analysis(battle, other, now=now + timedelta(seconds=5))
    assert asked is Asked.ALREADY and again.pk == stored.pk
    row = BattleAnalysis.objects.get()
    assert (row.requested_by, row.requested_at, row.status) == (user, now, Status.QUEUED)


def test_asking_again_resends_an_analysis_never_picked_up(battle, user):
    # Its message lost (the broker was down when it was published), the row stays queued:
    # asking again soon changes nothing; asking again later says to send it again.
    now = timezone.now()
    stored, _ = analysis_runs.request_analysis(battle, user, now=now)
    soon = now + analysis_runs.RESEND_AFTER - timedelta(seconds=1)
    assert analysis_runs.request_analysis(battle, user, now=soon)[1] is Asked.ALREADY
    later = now + analysis_runs.RESEND_AFTER
    again, asked = analysis_runs.request_analysis(battle, user, now=later)
    assert asked is Asked.RESENT and again.pk == stored.pk
    row = BattleAnalysis.objects.get()
    assert (row.status, row.requested_at) == (Status.QUEUED, now)  # not counted again
    # Once it runs, asking again changes nothing.
    assert run(battle.pk) == Status.DONE
    assert analysis_runs.request_analysis(battle, user, now=later)[1] is Asked.ALREADY


def test_the_run_stores_every_move_and_the_blunder(user):
    battle = played_battle()
    analysis_runs.request_analysis(battle, user, now=timezone.now())
    assert run(battle.pk, ms=MS) == Status.DONE
    row = BattleAnalysis.objects.get()
    assert row.status == Status.DONE and row.finished_at and row.started_at
    assert row.ms_per_position == MS and row.error == ""
    assert [p["move"] for p in row.plies] == ["d F1-F5", "T G7-F6", "d F5-F6 xF6"]
    blunder = row.plies[1]
    assert (
        blunder["judgement"] == "blunder"
        and blunder["reply"] == "d F5-F6 xF6"
        and blunder["loss"] >= 4
    )
    # Done is done: the task again, or a new request, changes nothing.
    assert run(battle.pk) == "skipped"
    _, asked = analysis_runs.request_analysis(battle, user, now=timezone.now())
    assert asked is Asked.ALREADY
    assert BattleAnalysis.objects.get().finished_at == row.finished_at


def test_the_task_function_runs_the_queued_analysis(battle, user):
    analysis_runs.request_analysis(battle, user, now=timezone.now())
    # The Celery task's body, in this process against the real database, on its own
    # clock: two positions of 800 ms.
    assert tasks.analyse.run(battle.pk) == Status.DONE
    assert BattleAnalysis.objects.get().ms_per_position == analysis_runs.budget_ms(2)
    assert tasks.analyse.run(battle.pk) == "skipped"


def test_nothing_queued_runs_nothing(battle):
    assert run(battle.pk) == "skipped"
    assert not BattleAnalysis.objects.exists()


def test_a_running_analysis_is_left_to_its_worker_until_its_hard_limit(battle, user):
    analysis_runs.request_analysis(battle, user, now=timezone.now())
    started = timezone.now() - timedelta(seconds=10)
    BattleAnalysis.objects.update(status=Status.RUNNING, started_at=started)
    assert run(battle.pk) == "skipped"  # a second delivery while it runs
    assert BattleAnalysis.objects.get().status == Status.RUNNING
    hard = analysis_runs.time_limits(battle.ply + 1)[1]
    late = started + timedelta(seconds=hard + 1)
    assert run(battle.pk, now=late) == Status.DONE  # its worker died: taken over


def test_a_failure_is_kept_and_may_be_queued_again(battle, user):
    analysis_runs.request_analysis(battle, user, now=timezone.now())
    Battle.objects.filter(pk=battle.pk).update(capture_policy="no-such-policy")
    assert run(battle.pk) == Status.FAILED
    row = BattleAnalysis.objects.get()
    assert row.status == Status.FAILED and "no-such-policy" in row.error and row.plies == []
    Battle.objects.filter(pk=battle.pk).update(capture_policy="subset")
    battle.refresh_from_db()
    _, asked = analysis_runs.request_analysis(battle, user, now=timezone.now())
    assert asked is Asked.QUEUED
    row.refresh_from_db()
    assert row.status == Status.QUEUED and row.error == ""
    assert run(battle.pk) == Status.DONE


def test_an_unfinished_battle_is_refused(user):
    battle = played_battle(finish=False)
    stored, asked = analysis_runs.request_analysis(battle, user, now=timezone.now())
    assert (stored, asked) == (None, Asked.NOT_FINISHED)
    assert not BattleAnalysis.objects.exists()


def test_a_battle_without_moves_is_refused(user):
    battle = played_battle(moves=())
    _, asked = analysis_runs.request_analysis(battle, user, now=timezone.now())
    assert asked is Asked.NOT_ANALYSABLE and not BattleAnalysis.objects.exists()


def test_a_user_may_ask_for_so_many_per_hour(battle, user):
    now = timezone.now()
    others = [played_battle(ONE_MOVE) for _ in range(2)]
    for b in others:
        BattleAnalysis.objects.create(battle=b, requested_by=user, requested_at=now)
    limit = analysis_runs.PER_HOUR
    analysis_runs.PER_HOUR = 2
    try:
        stored, asked = analysis_runs.request_analysis(battle, user, now=now)
        assert (stored, asked) == (None, Asked.LIMITED)
        assert BattleAnalysis.objects.count() == 2
        # An hour on, the window has passed.
        later = now + timedelta(hours=1, seconds=1)
        assert analysis_runs.request_analysis(battle, user, now=later)[1] is Asked.QUEUED
    finally:
        analysis_runs.PER_HOUR = limit


def test_the_budget_keeps_a_quickfire_battle_to_about_a_minute():
    positions = 61  # 60 plies
    assert 500 <= analysis_runs.budget_ms(positions) <= 1000
    assert positions * analysis_runs.budget_ms(positions) <= 75_000
    soft, hard = analysis_runs.time_limits(positions)
    assert positions * analysis_runs.budget_ms(positions) / 1000 < soft < hard
    assert analysis_runs.time_limits(201)[0] > soft  # more plies, more time
