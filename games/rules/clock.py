"""The quickfire clock as pure functions of ``(state, now)`` (DESIGN.md §5).

Terminology and invariants:
- A *turn* is one ply by the side to move. It starts at ``turn_started_at`` (T0).
  During *think* (until ``think_ends_at``) the player may look; in the *move* phase
  the move must be completed. ``deadline`` is the end of the turn; an expiry is due
  at ``deadline + grace`` (the grace lets a move in flight land).
- ``commit_rule == "touch"``: touching a piece during think ends think at once and
  the deadline becomes ``min(T0 + think + move, touch + move)``.
- An expiry *forfeits* the turn: the ply counter advances (forfeits count toward
  the limit) and the next turn starts at the settle time. The Nth consecutive
  forfeit by one side stops the clock for a referee (``needs_referee``).
- Outages are judged from the players' side. ``site_seen_at`` is the last time a web
  process proved the site reachable (``games.live.outages``: a heartbeat written only while
  it reaches the database and Redis; ``None`` when no web process ever wrote one). An
  expiry is applied only if the site was seen up at or after the turn's deadline: a
  player who could not reach the site at the end of their turn loses nothing. Until
  then the expiry waits (``EXPIRY_WAITS``); once the site has been unseen for longer
  than the battle's ``outage_threshold``, the battle is paused (``server_outage``).
- The outage threshold grows with the turn (``outage_threshold_ms``): 3 s for a
  quickfire turn, 1/100 of the turn for longer ones (29 minutes for a 2-day move), so
  a sweep minutes late is not an outage for a correspondence game.
- An expiry *found* more than the threshold late (no timer ran) is an outage too.
- An outage pause replays the turn in full on resume (a forfeit-turn clock), or gives
  back the time since the site was last seen (a lose-the-game clock: correspondence).
  Our downtime never decides games.
- Pausing stores the remaining time to the millisecond; resuming restores it.

Nothing here reads a clock or imports Django: ``now`` is always an argument, and
every function returns a new ``ClockState``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

PENDING = "pending"
RUNNING = "running"
PAUSED = "paused"
NEEDS_REFEREE = "needs_referee"
FINISHED = "finished"

# The two sides are the game's side keys in turn order (``ClockConfig.sides``); the
# clock only knows "first" and "second" seats and counts forfeits per seat.

# Expiry outcomes.
TURN_EXPIRED = "turn_expired"
OUTAGE_PAUSE = "outage_pause"
GAME_LOST_ON_TIME = "lost_on_time"
#: Not an outcome: the expiry is due but the site was not seen up at its deadline yet.
EXPIRY_WAITS = "expiry_waits"

#: A turn longer than 100 × the base threshold gets a threshold of 1/100 of the turn.
OUTAGE_FRACTION = 100

# Timeout rules (ClockConfig.timeout_rule).
FORFEIT_TURN = "forfeit_turn"
LOSE_GAME = "lose_game"

# Reasons a battle is paused or finished.
REASON_REFEREE = "referee"
REASON_OUTAGE = "server_outage"
REASON_REFEREE_OFFLINE = (
    "referee_offline"  # its referee page is away (games.rules.referee_presence)
)
REASON_FORFEITS = "consecutive_forfeits"
REASON_MOVE_LIMIT = "move_limit"
REASON_TIME = "lost_on_time"
#: A player resigned: like a loss on time, the battle ends with ``side_to_move`` the loser.
REASON_RESIGNED = "resigned"
REASON_UNFINISHED = "unfinished"  # imported from an archive while it was being played
REASON_UNREADABLE = "unreadable"  # set aside by the clock: its row cannot be settled


class ClockError(ValueError):
    """A clock transition that is not allowed in this state."""


@dataclass(frozen=True)
class ClockConfig:
    think_ms: int = 15_000
    move_ms: int = 5_000
    grace_ms: int = 300
    commit_rule: str = "touch"
    max_consecutive_forfeits: int = 3
    outage_threshold_ms: int = 3_000
    timed: bool = True
    sides: tuple[str, str] = ("first", "second")
    #: What an expiry does: forfeit the turn (quickfire) or lose the game (correspondence).
    timeout_rule: str = FORFEIT_TURN
    #: False for a battle nobody referees (casual): the Nth consecutive forfeit by one
    #: side then loses the game instead of waiting for a referee.
    referee: bool = True

    @property
    def turn_ms(self) -> int:
        return self.think_ms + self.move_ms


@dataclass(frozen=True)
class ClockState:
    config: ClockConfig
    status: str = PENDING
    side_to_move: str = ""
    ply: int = 0
    max_plies: int | None = None
    turn_started_at: datetime | None = None
    think_ends_at: datetime | None = None
    deadline: datetime | None = None
    touched: str = ""
    paused_remaining_ms: int | None = None
    paused_think_remaining_ms: int | None = None
    paused_reason: str = ""
    forfeits_first: int = 0
    forfeits_second: int = 0
    finished_reason: str = ""


def _ms(delta: timedelta) -> int:
    return int(round(delta.total_seconds() * 1000))


def other(state: ClockState, side: str) -> str:
    first, second = state.config.sides
    return second if side == first else first


def due_at(state: ClockState) -> datetime | None:
    """When an expiry of the current turn becomes due (deadline + grace)."""
    if state.deadline is None:
        return None
    return state.deadline + timedelta(milliseconds=state.config.grace_ms)


def start_turn(state: ClockState, now: datetime) -> ClockState:
    """Start a turn for ``state.side_to_move`` at ``now`` (or run untimed)."""
    if not state.config.timed:
        return replace(
            state,
            status=RUNNING,
            turn_started_at=now,
            think_ends_at=None,
            deadline=None,
            touched="",
        )
    cfg = state.config
    return replace(
        state,
        status=RUNNING,
        turn_started_at=now,
        think_ends_at=now + timedelta(milliseconds=cfg.think_ms),
        deadline=now + timedelta(milliseconds=cfg.turn_ms),
        touched="",
        paused_remaining_ms=None,
        paused_think_remaining_ms=None,
        paused_reason="",
    )


def start(state: ClockState, now: datetime) -> ClockState:
    if state.status != PENDING:
        raise ClockError("battle already started")
    return start_turn(replace(state, side_to_move=state.config.sides[0], ply=0), now)


def remaining_ms(state: ClockState, now: datetime) -> int | None:
    """Milliseconds left in the current turn (frozen while paused); None if untimed."""
    if state.status == PAUSED or state.status == NEEDS_REFEREE:
        return state.paused_remaining_ms
    if state.status != RUNNING or state.deadline is None:
        return None
    return max(0, _ms(state.deadline - now))


def think_remaining_ms(state: ClockState, now: datetime) -> int | None:
    if state.status == PAUSED or state.status == NEEDS_REFEREE:
        return state.paused_think_remaining_ms
    if state.status != RUNNING or state.think_ends_at is None:
        return None
    return max(0, _ms(state.think_ends_at - now))


def expiry_due(state: ClockState, now: datetime) -> bool:
    due = due_at(state)
    return state.status == RUNNING and due is not None and now >= due


def move_in_time(state: ClockState, now: datetime) -> bool:
    """A move submitted at ``now`` is accepted until deadline + grace (then it expires)."""
    due = due_at(state)
    return due is None or now < due


def _advance(state: ClockState, now: datetime, *, forfeit: bool) -> ClockState:
    mover = state.side_to_move
    fd, ft = state.forfeits_first, state.forfeits_second
    if mover == state.config.sides[0]:
        fd = fd + 1 if forfeit else 0
    else:
        ft = ft + 1 if forfeit else 0
    nxt = replace(
        state,
        ply=state.ply + 1,
        side_to_move=other(state, mover),
        forfeits_first=fd,
        forfeits_second=ft,
        touched="",
    )
    if nxt.max_plies is not None and nxt.ply >= nxt.max_plies:
        return finish(nxt, REASON_MOVE_LIMIT)
    if forfeit and max(fd, ft) >= state.config.max_consecutive_forfeits:
        if not state.config.referee:
            return finish(replace(nxt, side_to_move=mover), REASON_TIME)
        # The clock stops; on resolution the side to move gets a fresh turn.
        return replace(
            nxt,
            status=NEEDS_REFEREE,
            paused_reason=REASON_FORFEITS,
            paused_remaining_ms=state.config.turn_ms,
            paused_think_remaining_ms=state.config.think_ms,
            turn_started_at=None,
            think_ends_at=None,
            deadline=None,
        )
    return start_turn(nxt, now)


def outage_threshold_ms(config: ClockConfig) -> int:
    """How long the site may be unseen (or an expiry be found late) before it is an
    outage: the configured threshold, or 1/100 of a longer turn."""
    return max(config.outage_threshold_ms, config.turn_ms // OUTAGE_FRACTION)


def site_down(state: ClockState, now: datetime, site_seen_at: datetime | None) -> bool:
    """True if nobody has seen the site up for longer than this battle's threshold."""
    if site_seen_at is None:
        return False
    return _ms(now - site_seen_at) > outage_threshold_ms(state.config)


def outage_pause(
    state: ClockState, site_seen_at: datetime | None, reason: str = REASON_OUTAGE
) -> ClockState:
    """Pause for an outage (the site's, or ``referee_offline``): the turn replayed in full on
    resume, or (a lose-the-game clock) the time left when last seen, at least the threshold."""
    remaining, think = state.config.turn_ms, state.config.think_ms
    if state.config.timeout_rule == LOSE_GAME and state.deadline is not None:
        # At least the threshold's time, so that a resume never lands on an expiry.
        seen = site_seen_at or state.deadline
        floor = outage_threshold_ms(state.config)
        remaining = min(remaining, max(floor, _ms(state.deadline - seen)))
        think = min(think, remaining)
    return replace(
        state,
        status=PAUSED,
        paused_reason=reason,
        paused_remaining_ms=remaining,
        paused_think_remaining_ms=think,
        touched="",
        turn_started_at=None,
        think_ends_at=None,
        deadline=None,
    )


def resolve_timeout(
    state: ClockState, now: datetime, site_seen_at: datetime | None = None
) -> tuple[ClockState, str]:
    """Settle a due expiry: forfeit the turn (or lose the game, under the ``lose_game``
    rule; the side to move is the loser); pause if it is an outage; or, while the site
    has not been seen up since the deadline, wait (``EXPIRY_WAITS``, state unchanged)."""
    if not expiry_due(state, now):
        raise ClockError("no expiry is due")
    late_ms = _ms(now - due_at(state))  # type: ignore[operator]
    if late_ms > outage_threshold_ms(state.config) or site_down(state, now, site_seen_at):
        return outage_pause(state, site_seen_at), OUTAGE_PAUSE
    if site_seen_at is not None and site_seen_at < state.deadline:  # type: ignore[operator]
        return state, EXPIRY_WAITS
    if state.config.timeout_rule == LOSE_GAME:
        return finish(state, REASON_TIME), GAME_LOST_ON_TIME
    return _advance(state, now, forfeit=True), TURN_EXPIRED


def after_move(state: ClockState, now: datetime) -> ClockState:
    """The side to move completed a move at ``now``."""
    if state.status != RUNNING:
        raise ClockError("the clock is not running")
    if not move_in_time(state, now):
        raise ClockError("too late")
    return _advance(state, now, forfeit=False)


def touch(state: ClockState, now: datetime, square: str) -> ClockState:
    """Touch a piece: under the touch rule, ends think at once."""
    if state.status != RUNNING:
        raise ClockError("the clock is not running")
    if state.touched:
        if state.touched == square:
            return state
        raise ClockError("a piece is already touched")
    if state.config.commit_rule != "touch" or state.deadline is None:
        return replace(state, touched=square)
    if not move_in_time(state, now):
        raise ClockError("too late")
    think_end = state.think_ends_at or now
    if now < think_end:
        deadline = min(state.deadline, now + timedelta(milliseconds=state.config.move_ms))
        return replace(state, touched=square, think_ends_at=now, deadline=deadline)
    return replace(state, touched=square)


def pause(state: ClockState, now: datetime, reason: str = REASON_REFEREE) -> ClockState:
    if state.status != RUNNING:
        raise ClockError("only a running clock can be paused")
    return replace(
        state,
        status=PAUSED,
        paused_reason=reason,
        paused_remaining_ms=remaining_ms(state, now),
        paused_think_remaining_ms=think_remaining_ms(state, now),
        turn_started_at=None,
        think_ends_at=None,
        deadline=None,
    )


def resume(state: ClockState, now: datetime) -> ClockState:
    """Resume a paused clock, or restart a clock waiting for a referee."""
    if state.status == NEEDS_REFEREE:
        state = replace(state, forfeits_first=0, forfeits_second=0)
    elif state.status != PAUSED:
        raise ClockError("the clock is not paused")
    if not state.config.timed or state.paused_remaining_ms is None:
        return start_turn(state, now)
    rem = state.paused_remaining_ms
    think = min(state.paused_think_remaining_ms or 0, rem)
    return replace(
        state,
        status=RUNNING,
        paused_reason="",
        turn_started_at=now,
        think_ends_at=now + timedelta(milliseconds=think),
        deadline=now + timedelta(milliseconds=rem),
        paused_remaining_ms=None,
        paused_think_remaining_ms=None,
    )


def give_time(state: ClockState, now: datetime, ms: int) -> ClockState:
    """A referee adds ``ms`` to the current turn (to its move phase)."""
    if ms <= 0:
        raise ClockError("time given must be positive")
    if state.status == RUNNING and state.deadline is not None:
        if expiry_due(state, now):
            raise ClockError("the turn has already expired")
        return replace(state, deadline=state.deadline + timedelta(milliseconds=ms))
    if state.status in (PAUSED, NEEDS_REFEREE) and state.paused_remaining_ms is not None:
        return replace(state, paused_remaining_ms=state.paused_remaining_ms + ms)
    raise ClockError("no clock to give time to")


def resign(state: ClockState, side: str) -> ClockState:
    """``side`` resigns: the battle ends now, ``side`` recorded as the side to move (the
    loser, as a loss on time records it), the board and its score as they stand."""
    if state.status not in (RUNNING, PAUSED):
        raise ClockError("only a running or paused battle can be resigned")
    return finish(replace(state, side_to_move=side), REASON_RESIGNED)


def finish(state: ClockState, reason: str) -> ClockState:
    return replace(
        state,
        status=FINISHED,
        finished_reason=reason,
        touched="",
        turn_started_at=None,
        think_ends_at=None,
        deadline=None,
        paused_remaining_ms=None,
        paused_think_remaining_ms=None,
        paused_reason="",
    )
