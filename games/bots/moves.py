"""The computer's moves, computed by a Celery worker on the bots queue (never in a web or
clock process).

Terminology and invariants:
- A battle *against the computer* has ``bot_level`` (1-5) and ``bot_side``, the side key
  the computer plays. The user seated at that side is the site's *computer user*
  (``computer_user``): inactive and without a usable password, so nobody logs in as it,
  challenges it or finds it listed. Only a game whose rules are a ``BotGame`` is offered.
- Whenever it becomes the computer's turn, ``bots.move(battle_id, version)`` is queued:
  on the commit of every clock write that says so (``games.events.signals.turn_changed``: the
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
- An offer to end the battle made to the computer is answered at once, whoever's turn it
  is: ``bots.answer_end(battle_id, version)`` is queued on the offer's commit
  (``games.events.signals.end_offered``) and runs on the bots worker like a move. The search
  (the game's ``analyse``, the level's budget) says what the computer expects from the
  position; it accepts when ending now scores at least that for it (``accepts_end``),
  else it declines, recorded as a ``ClockEvent`` ``end_declined`` that the page shows.
  Idempotent: it answers only an offer that still stands, at the version it searched
  (a move meanwhile queues the answer again for the new position).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F

from games.battles import store
from games.battles.errors import BattleError
from games.battles.play import accept_end, submit_move
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules.interface import WIN, BotGame, Game, other_side, points

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
#: The task that answers an offer to end the battle (``games.tasks.bot_answer_end``).
ANSWER_TASK = "bots.answer_end"
#: ``ClockEvent.detail`` of the computer's refusal of an end offer.
DECLINED = "computer"
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


def publish(
    battle_id: int, version: int, *, expires: float | None = None, task: str = MOVE_TASK
) -> None:
    """Queue the computer's move (or ``task``) at ``version``; never raises (the safety
    net resends a move)."""
    try:
        with current_app.connection_for_write(
            connect_timeout=PUBLISH_TIMEOUT_S, transport_options=_ONE_TRY
        ) as connection:
            current_app.send_task(
                task,
                args=[battle_id, version],
                queue=queue_name(),
                connection=connection,
                retry=False,
                expires=expires,
            )
    except Exception:  # the broker is down or refusing: the safety net sends it again
        log.warning("could not queue %s(%s, %s)", task, battle_id, version)


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


def on_end_offered(
    sender: object, *, battle_id: int, side: str, bot_side: str = "", **_kw: object
) -> None:
    """Receiver of ``end_offered`` (after commit): queue the computer's answer to an offer
    made to it (an offer in a battle between people costs nothing here)."""
    if bot_side and side != bot_side:
        version = Battle.objects.filter(pk=battle_id).values_list("clock_version", flat=True)
        publish(battle_id, version.first() or 0, task=ANSWER_TASK)


def offer_to_answer(battle_id: int) -> Battle | None:
    """The battle if an offer to end it, made to the computer, stands and it can end."""
    battle = Battle.objects.filter(pk=battle_id).select_related("match").first()
    if (
        battle is None
        or battle.bot_level is None
        or battle.status not in (Battle.Status.RUNNING, Battle.Status.PAUSED)
        or not battle.end_offered_by
        or battle.end_offered_by == battle.bot_side
    ):
        return None
    return battle


def accepts_end(*, now: int, expected: int) -> bool:
    """The computer accepts to end a battle when ending ``now`` scores at least what it
    ``expected`` from play (both its points minus its opponent's, in hundredths of a
    point, as the search scores: a slight edge is worth playing on for).

    >>> accepts_end(now=-300, expected=-400), accepts_end(now=0, expected=37)
    (True, False)
    """
    return now >= expected


def hundredths(score: int) -> int:
    """A search score in hundredths of a point (a finished battle's: its margin)."""
    return points(score) * 100 if abs(score) >= WIN else score


def margins(battle: Battle) -> tuple[int, int]:
    """(the computer's margin if the battle ended now, the margin its search expects), in
    hundredths of the game's points; the search (the game's ``analyse``, the level's
    budget) runs here, on the bots worker."""
    rules = battle.rules
    if not isinstance(rules, BotGame) or battle.bot_level is None:
        raise ValueError(f"battle {battle.pk}: the computer does not play {battle.game}")
    state = rules.deserialise(battle.board)
    scores = rules.scores(state)
    mine, theirs = battle.bot_side, other_side(rules, battle.bot_side)
    now_margin = 100 * (scores.get(mine, 0) - scores.get(theirs, 0))
    plies_left = battle.max_plies - battle.ply if battle.max_plies else None
    searched = rules.analyse(
        state,
        budget_ms=float(LEVEL_BUDGET_MS[battle.bot_level]),
        clock=time.monotonic,
        plies_left=plies_left,
    )
    best = hundredths(searched.best[1])
    return now_margin, best if battle.side_to_move == mine else -best


def answer_end(battle_id: int, version: int, *, read_clock: Callable[[], datetime]) -> str:
    """The computer's answer to an offer to end the battle: "accepted", "declined", or
    "" when there was nothing (more) to answer or the position changed meanwhile (then
    the answer is queued again, for the new position). ``version`` is the battle's when
    the offer was made (for the log; the answer is for the position searched).
    ``read_clock`` is read after the search: the answer's time."""
    battle = offer_to_answer(battle_id)
    if battle is None:
        return ""
    now_margin, expected = margins(battle)
    now = read_clock()
    log.info(
        "battle %s (offer at version %s): ending now %s, the computer expects %s",
        battle_id,
        version,
        now_margin,
        expected,
    )
    current = offer_to_answer(battle_id)
    if current is None:
        return ""
    if current.clock_version != battle.clock_version:
        publish(battle_id, current.clock_version, task=ANSWER_TASK)
        return ""
    if accepts_end(now=now_margin, expected=expected):
        try:
            accept_end(battle_id, side=battle.bot_side, now=now)
        except BattleError as exc:
            log.info("computer's acceptance in battle %s refused: %s", battle_id, exc)
            return ""
        return "accepted"
    with transaction.atomic():
        declined = Battle.objects.filter(
            pk=battle_id, end_offered_by=battle.end_offered_by, clock_version=battle.clock_version
        ).update(end_offered_by="")
        if not declined:
            return ""
        battle.end_offered_by = ""
        store.event(
            battle,
            ClockEvent.Kind.END_DECLINED,
            now=now,
            via=ClockEvent.Via.PLAYER,
            detail=DECLINED,
        )
        store.on_commit_publish(battle, now=now, offer="")
    return "declined"
