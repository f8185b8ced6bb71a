"""The computer's moves, computed by a Celery worker on the bots queue (never in a web or
clock process).

Terminology and invariants:
- A battle *against the computer* has ``bot_level`` (1-5) and ``bot_side``, the side key
  the computer plays. The user seated at that side is the site's *computer user*
  (``computer_user``): inactive and without a usable password, so nobody logs in as it,
  challenges it or finds it listed. Only a game whose rules are a ``BotGame`` is offered.
- Whenever it becomes the computer's turn, ``bots.move(battle_id, version)`` is queued:
  on the commit of every clock write that says so (``games.signals.turn_changed``: the
  start, the player's move, a forfeited turn, a resume by agreement), and by the safety
  net ``bots.resend`` (beat, every ``RESEND_S``) for a computer's turn that has waited
  longer than ``STALLED``: a task lost with Redis, or a resume after an outage (the bulk
  write of ``games.live.outages`` sends no signal). Queuing never raises: a broker that
  refuses leaves the turn to the safety net.
- The task is idempotent: it plays only while the battle runs at ``version`` with the
  computer to move, and its move goes through ``games.battles.play.submit_move`` with
  that version (a compare-and-set): a duplicate, a retry or a stale task applies nothing
  twice. The move is published over SSE on commit like a person's (``store.write``).
- The search's budget is the level's (``LEVEL_BUDGET_MS``), cut to what is left of the
  think period less ``MARGIN_MS``; the task has a soft and a hard time limit. If the task
  never runs, the clock forfeits the computer's turn as it would a person's.
- Its seed is ``battle_id * 1000 + ply``: a battle replays the same way at a fixed depth.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F

from games.battles.errors import BattleError
from games.battles.play import submit_move
from games.interface import BotGame, Game
from games.models.battle import Battle

log = logging.getLogger(__name__)

LEVELS = (1, 2, 3, 4, 5)
#: The search time of each level (ms), at most: the levels differ by their search too.
LEVEL_BUDGET_MS = {1: 200, 2: 400, 3: 700, 4: 1000, 5: 1500}
#: Kept back from the think period: the submit, the commit, a busy worker.
MARGIN_MS = 1000
#: The least budget a search gets, however late the task runs (the clock judges).
MIN_BUDGET_MS = 50
#: The task that computes and plays the computer's move (``games.tasks.bot_move``).
MOVE_TASK = "bots.move"
#: A task's soft and hard time limits (s): well above any budget, well below a turn.
SOFT_LIMIT_S = 8
HARD_LIMIT_S = 10
#: The safety net: how often it looks, and how long a computer's turn waits before its
#: move is queued again.
RESEND_S = 2.0
STALLED = timedelta(seconds=3)
#: A re-sent task older than this is dropped by the worker (the next look sends another).
RESEND_EXPIRES_S = 10
#: The computer's username: not a name anyone can sign up with (a space), so it never
#: clashes with a player's.
COMPUTER_USERNAME = "The computer"
#: How long queuing a task may take in a request (s): one try, the beat is the retry.
PUBLISH_TIMEOUT_S = 1.0
_ONE_TRY = {
    "max_retries": 0,
    "socket_connect_timeout": PUBLISH_TIMEOUT_S,
    "socket_timeout": PUBLISH_TIMEOUT_S,
}


def plays(game: Game) -> bool:
    """Whether the computer plays ``game`` (its rules have a ``bot_move``)."""
    return isinstance(game, BotGame)


def computer_user():
    """The site's one computer user, created on first use (inactive, no usable password)."""
    user, created = get_user_model().objects.get_or_create(
        username=COMPUTER_USERNAME, defaults={"is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def queue_name() -> str:
    return settings.THUD_BOTS_QUEUE


def publish(battle_id: int, version: int, *, expires: float | None = None) -> None:
    """Queue the computer's move at ``version``; never raises (the safety net resends)."""
    try:
        with current_app.connection_for_write(
            connect_timeout=PUBLISH_TIMEOUT_S, transport_options=_ONE_TRY
        ) as connection:
            current_app.send_task(
                MOVE_TASK,
                args=[battle_id, version],
                queue=queue_name(),
                connection=connection,
                retry=False,
                expires=expires,
            )
    except Exception:  # the broker is down or refusing: the safety net sends it again
        log.warning(
            "could not queue bots.move(%s, %s); the beat will resend it", battle_id, version
        )


def on_turn_changed(
    sender: object,
    *,
    battle_id: int,
    version: int,
    side_to_move: str,
    status: str,
    bot_side: str = "",
    **_kw: object,
) -> None:
    """Receiver of ``turn_changed`` (sent after commit): queue the computer's move when
    the battle runs with the computer to move (no query: a battle between people, most
    of them, costs nothing here)."""
    if bot_side and status == Battle.Status.RUNNING and side_to_move == bot_side:
        publish(battle_id, version)


def computers_turn(battle_id: int, version: int) -> Battle | None:
    """The battle if it runs at ``version`` with the computer to move, else ``None``."""
    battle = Battle.objects.filter(pk=battle_id).select_related("match").first()
    if (
        battle is None
        or battle.bot_level is None
        or battle.status != Battle.Status.RUNNING
        or battle.side_to_move != battle.bot_side
        or battle.clock_version != version
    ):
        return None
    return battle


def budget_ms(battle: Battle, *, now: datetime) -> float:
    """The level's search time, cut to the think period left less ``MARGIN_MS`` (or, the
    think period over, to the turn left), never below ``MIN_BUDGET_MS``."""
    level = LEVEL_BUDGET_MS[battle.bot_level or LEVELS[-1]]
    if not battle.timed or battle.deadline is None:
        return float(level)
    left = battle.deadline
    if battle.think_ends_at is not None and battle.think_ends_at > now:
        left = battle.think_ends_at
    limit = (left - now).total_seconds() * 1000 - MARGIN_MS
    return float(max(MIN_BUDGET_MS, min(level, limit)))


def choose(battle: Battle, *, now: datetime) -> str:
    """The computer's move in ``battle`` (the search runs here, on the bots worker)."""
    rules = battle.rules
    if not isinstance(rules, BotGame) or battle.bot_level is None:
        raise ValueError(f"battle {battle.pk}: the computer does not play {battle.game}")
    plies_left = battle.max_plies - battle.ply if battle.max_plies else None
    return rules.bot_move(
        rules.deserialise(battle.board),
        level=battle.bot_level,
        seed=battle.pk * 1000 + battle.ply,
        budget_ms=budget_ms(battle, now=now),
        clock=time.monotonic,
        plies_left=plies_left,
    )


def submit(battle: Battle, notation: str, *, version: int, now: datetime) -> bool:
    """Play ``notation`` for the computer at ``version``; False when refused (the battle
    moved on, or the turn ran out: nothing applied)."""
    try:
        submit_move(battle.pk, side=battle.bot_side, version=version, notation=notation, now=now)
    except BattleError as exc:
        log.info("computer's move %s in battle %s refused: %s", notation, battle.pk, exc)
        return False
    return True


def stalled(*, now: datetime) -> list[tuple[int, int]]:
    """``(battle_id, version)`` of every running battle whose computer's turn has waited
    since before ``now - STALLED``."""
    return list(
        Battle.objects.filter(
            status=Battle.Status.RUNNING,
            bot_level__isnull=False,
            side_to_move=F("bot_side"),
            updated_at__lte=now - STALLED,
        )
        .order_by()
        .values_list("pk", "clock_version")
    )


def resend_stalled(*, now: datetime) -> int:
    """The safety net (the task ``bots.resend``): queue again the move of every computer's
    turn that waits too long; how many."""
    waiting = stalled(now=now)
    for battle_id, version in waiting:
        publish(battle_id, version, expires=RESEND_EXPIRES_S)
    return len(waiting)
