"""The computer's moves and analyses on their own workers (issue 40), with real
processes: a Celery bots worker and an analysis worker with the Procfile's options, the
clock worker and beat, a real Redis.

A user's analyses keep the analysis worker busy (several, each searching a dozen
positions at 800 ms) when the computer must move in a quickfire battle: its move is
stored while those analyses still wait their turn. On one worker for both (the old
layout) the move came after every analysis queued before it. Asserted on order and
state, never on a duration."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from games.analysis import runs as analysis_runs
from games.analysis import tasks
from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from games.models.history import Move
from play import computer
from tests.factories import UserFactory
from tests.games.analysis_helpers import played_battle, random_moves
from tests.processes import wait_for

pytestmark = [pytest.mark.clock, pytest.mark.django_db(transaction=True)]
Status = BattleAnalysis.Status

#: Analyses queued at once, and the plies of each battle (13 positions: ~10 s of search).
ANALYSES = 3
PLIES = 12


def ask_for_analyses(user, count: int, plies: int) -> list[int]:
    """``count`` finished battles, each analysis asked for by ``user`` and published."""
    ids = []
    for seed in range(count):
        battle = played_battle(random_moves(plies, seed=seed))
        analysis_runs.request_analysis(battle, user, now=timezone.now())
        assert tasks.publish_analysis(battle.pk, analysis_runs.positions_of(battle))
        ids.append(battle.pk)
    return ids


def statuses(ids: list[int]) -> list[str]:
    by_battle = dict(
        BattleAnalysis.objects.filter(battle_id__in=ids).values_list("battle_id", "status")
    )
    return [by_battle[i] for i in ids]


def test_the_computer_moves_while_a_users_analyses_wait_for_their_worker(cluster_factory):
    cluster = cluster_factory(bots=True, analysis=True)
    try:
        analyst, player = UserFactory(), UserFactory()
        ids = ask_for_analyses(analyst, ANALYSES, PLIES)
        wait_for(lambda: statuses(ids)[0] == Status.RUNNING, timeout=60, what="the first analysis")
        with transaction.atomic():
            battle = computer.start(
                by=player,
                game="thud",
                level=1,
                side=computer.COMPUTER_FIRST,
                time_control=computer.QUICKFIRE,
                now=timezone.now(),
            )
        move = wait_for(
            lambda: Move.objects.filter(battle=battle).first(),
            timeout=90,
            what="the computer's move",
        )
        waiting = statuses(ids)
        # The computer played (not a forfeit: in time) while analyses asked for before its
        # turn still waited for the analysis worker.
        assert move.kind != "forfeit" and move.side == Battle.objects.get(pk=battle.pk).bot_side
        assert waiting[-1] == Status.QUEUED, waiting
        assert Status.DONE not in waiting[1:], waiting
    finally:
        cluster.worker("analysis").kill()  # its searches would run on for half a minute
