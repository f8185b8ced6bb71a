"""Asking for a finished battle's analysis and running it (the ORM side of
:mod:`games.rules.analysis`).

- :func:`request_analysis` creates the battle's one :class:`BattleAnalysis` (queued), or
  queues a failed one again; anything else changes nothing and says why (:class:`Asked`).
  The caller publishes the task after the commit (``games.analysis.tasks.publish_analysis``).
  The limit per user per hour is counted and the row created under a lock of the user's
  row, so parallel requests count one by one.
- A request for an analysis still queued :data:`RESEND_AFTER` after it was asked for
  answers :attr:`Asked.RESENT`: its message may have been lost (the broker was down when
  it was published), so the caller publishes it again. A duplicate message is harmless:
  the compare-and-set below runs the analysis once.
- The beat's safety net (:func:`lost`, task ``analysis.resend``) finds the analyses whose
  message was lost without anyone asking again: queued for :data:`RESEND_AFTER` or more
  (or running past their hard time limit: their worker died), at a time when no
  analysis runs and the analysis queue is empty (the caller looks at the broker). An
  analysis waiting its turn behind others is never among them: a worker takes the
  queue's messages in order, and the queue is not empty while one waits there.
- :func:`run_analysis` is the task's body: compare-and-set queued -> running (or takes
  over a run whose worker died: running for longer than its hard time limit), searches,
  then running -> done, or failed with the error. The run's ``started_at`` is its token:
  only the run that holds the row stores its result (the row locked, its state checked),
  so a task delivered twice, or a run taken over, stores one result.

The budget keeps a battle's analysis to about a minute: :data:`MS_PER_POSITION` per
position, less for a long battle (:func:`budget_ms`); the task's time limits grow with the
number of positions (:func:`time_limits`).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.archive import export as archive
from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from games.rules import analysis
from games.rules.analysis import budget_ms
from games.rules.interface import BotGame

log = logging.getLogger(__name__)

#: Analyses one user may ask for per hour (each is a minute of a worker).
PER_HOUR = 10
#: How long a queued analysis waits before asking again sends its message again: long
#: enough that a double click sends one message, short against the page's 3 s polls
#: showing "queued" for ever.
RESEND_AFTER = timedelta(seconds=30)


class Asked(enum.Enum):
    QUEUED = "queued"
    ALREADY = "already"  # queued, running or done: nothing changed
    RESENT = "resent"  # queued but never picked up: the caller publishes it again
    NOT_FINISHED = "not_finished"
    NOT_ANALYSABLE = "not_analysable"  # no moves, or a game without a search
    LIMITED = "limited"


def positions_of(battle: Battle) -> int:
    """How many positions the analysis searches (every one after a move, and before)."""
    return battle.ply + 1


def time_limits(positions: int) -> tuple[int, int]:
    """``(soft, hard)`` seconds for the task: the searches' time, half as much again,
    and a margin for loading and saving.

    >>> time_limits(61)
    (103, 133)
    """
    soft = int(positions * budget_ms(positions) * 1.5 / 1000) + 30
    return soft, soft + 30


def analysable(battle: Battle) -> Asked | None:
    """Why ``battle`` cannot be analysed, or ``None``."""
    if not battle.is_finished:
        return Asked.NOT_FINISHED
    if battle.mode != Battle.Mode.ONLINE or not isinstance(battle.rules, BotGame):
        return Asked.NOT_ANALYSABLE
    if battle.ply == 0:
        return Asked.NOT_ANALYSABLE
    return None


def request_analysis(battle: Battle, user, *, now: datetime) -> tuple[BattleAnalysis | None, Asked]:
    """Queue ``battle``'s analysis for ``user`` (see the module note)."""
    refused = analysable(battle)
    if refused is not None:
        return None, refused
    with transaction.atomic():
        # The user's row, locked: parallel requests by one user count one by one (the
        # count below would otherwise let every one of them through at PER_HOUR - 1).
        list(get_user_model().objects.select_for_update().filter(pk=user.pk))
        return _request_locked(battle, user, now=now)


def _request_locked(battle: Battle, user, *, now: datetime) -> tuple[BattleAnalysis | None, Asked]:
    existing = BattleAnalysis.objects.filter(battle=battle).first()
    if existing is not None and existing.status == BattleAnalysis.Status.QUEUED:
        if existing.requested_at <= now - RESEND_AFTER:
            return existing, Asked.RESENT
        return existing, Asked.ALREADY
    if existing is not None and existing.status != BattleAnalysis.Status.FAILED:
        return existing, Asked.ALREADY
    since = now - timedelta(hours=1)
    if BattleAnalysis.objects.filter(requested_by=user, requested_at__gte=since).count() >= (
        PER_HOUR
    ):
        return existing, Asked.LIMITED
    fields = {"requested_by": user, "requested_at": now, "ms_per_position": 0, "error": ""}
    queued = BattleAnalysis.Status.QUEUED
    if existing is not None:  # failed: queue it again, if nobody did in the meantime
        changed = BattleAnalysis.objects.filter(
            pk=existing.pk, status=BattleAnalysis.Status.FAILED
        ).update(status=queued, started_at=None, finished_at=None, plies=[], **fields)
        existing.refresh_from_db()
        return existing, Asked.QUEUED if changed else Asked.ALREADY
    try:
        with transaction.atomic():
            created = BattleAnalysis.objects.create(battle=battle, status=queued, **fields)
    except IntegrityError:  # a parallel request created it first
        return BattleAnalysis.objects.get(battle=battle), Asked.ALREADY
    return created, Asked.QUEUED


def lost(*, now: datetime) -> list[tuple[int, int]]:
    """``(battle_id, positions)`` of the analyses to send again, oldest first: every one
    queued since :data:`RESEND_AFTER` or running past its hard time limit, unless an
    analysis runs within its limit (its worker is at the queue: wait for it). The caller
    sends them only if the analysis queue is empty (see the module note). One query."""
    rows = BattleAnalysis.objects.filter(
        status__in=[BattleAnalysis.Status.QUEUED, BattleAnalysis.Status.RUNNING]
    ).values_list("battle_id", "status", "requested_at", "started_at", "battle__ply")
    found = []
    for battle_id, status, requested_at, started_at, ply in rows:
        positions = ply + 1
        if status == BattleAnalysis.Status.QUEUED:
            if requested_at <= now - RESEND_AFTER:
                found.append((requested_at, battle_id, positions))
        elif started_at is None or started_at <= now - timedelta(seconds=time_limits(positions)[1]):
            found.append((started_at or requested_at, battle_id, positions))
        else:
            return []  # a run in progress
    return [(battle_id, positions) for _at, battle_id, positions in sorted(found)]


def _claim(battle_id: int, *, now: datetime) -> datetime | None:
    """Queued -> running, or a dead run's takeover: the run's token (its ``started_at``),
    or ``None`` when another run has it."""
    rows = BattleAnalysis.objects.filter(battle_id=battle_id)
    if rows.filter(status=BattleAnalysis.Status.QUEUED).update(
        status=BattleAnalysis.Status.RUNNING, started_at=now
    ):
        return now
    running = rows.filter(status=BattleAnalysis.Status.RUNNING).select_related("battle").first()
    if running is None or running.started_at is None:
        return None
    hard = time_limits(positions_of(running.battle))[1]
    if running.started_at > now - timedelta(seconds=hard):
        return None  # its worker may still be at it
    taken = rows.filter(status=BattleAnalysis.Status.RUNNING, started_at=running.started_at).update(
        started_at=now
    )
    return now if taken else None


def run_analysis(
    battle_id: int,
    *,
    now: datetime,
    clock: Callable[[], float],
    read_now: Callable[[], datetime],
    ms: int | None = None,
) -> str:
    """Run the queued analysis of ``battle_id``; its status after (``"skipped"`` when it
    was not this run's to do, ``"superseded"`` when another run took it over meanwhile and
    this one's result was dropped). ``ms`` overrides the budget per position."""
    token = _claim(battle_id, now=now)
    if token is None:
        return "skipped"
    battle = archive.with_moves(Battle.objects.filter(pk=battle_id)).get()
    moves = archive.moves_of(battle)
    per_position = ms if ms is not None else budget_ms(positions_of(battle))
    try:
        game = battle.rules
        start = game.initial_state({"board_seed": battle.board_seed})
        states = analysis.positions(game, start, moves)
        rows = analysis.analyse_battle(
            game, states, moves, budget_ms=per_position, clock=clock, max_plies=battle.max_plies
        )
    except Exception as exc:  # any failure is the row's: it may be queued again
        log.exception("analysis of battle %s failed", battle_id)
        error = str(exc) or repr(exc)
        if not _finish(battle_id, token, BattleAnalysis.Status.FAILED, read_now(), error=error):
            return "superseded"
        return BattleAnalysis.Status.FAILED
    if not _finish(
        battle_id,
        token,
        BattleAnalysis.Status.DONE,
        read_now(),
        plies=[row.as_dict() for row in rows],
        ms_per_position=per_position,
    ):
        return "superseded"
    return BattleAnalysis.Status.DONE


def _finish(battle_id: int, token: datetime, status: str, now: datetime, **fields) -> bool:
    """Store the run's outcome if the row is still this run's (running since ``token``):
    a run taken over, or one whose row another run already finished, stores nothing."""
    with transaction.atomic():
        row = BattleAnalysis.objects.select_for_update().filter(battle_id=battle_id).first()
        if row is None or row.status != BattleAnalysis.Status.RUNNING or row.started_at != token:
            log.info("analysis of battle %s: another run holds it; result dropped", battle_id)
            return False
        BattleAnalysis.objects.filter(pk=row.pk).update(status=status, finished_at=now, **fields)
    return True
