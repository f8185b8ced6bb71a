"""The battle workflow on the ORM side: every clock transition is a compare-and-set.

Terminology and invariants (see also ``games/clock.py`` and DESIGN.md §5):
- Each operation reads the battle row, computes the new clock state with the pure
  functions of ``games.clock`` and writes it with one
  ``UPDATE battle SET ..., clock_version = v + 1 WHERE id = ? AND clock_version = v``.
  The writer that commits first wins; everyone else sees ``rowcount == 0``. That
  makes an expiry exactly-once in effect however many triggers fire
  (the clock timer of ``games.timer``, beat sweep, settle-on-read, client nudge).
- Every successful write publishes, on commit, the new state on Redis channel
  ``battle:<id>`` and its due time on ``clock:due``, which wakes the clock timers.
- ``settle()`` runs first in every request that touches a battle, so the clock is
  enforced even while Celery or Redis is down.
- Online battles keep the game state (``Game.serialise``) in ``board`` and the game
  (``battle.rules``, see ``games/interface.py``) decides legality, what a forfeited turn
  does (``pass_turn``) and when play is over (``outcome``); over-the-board battles
  (``mode="otb"``) only run the clock. Nothing here knows which game is played.
- A battle belongs to a tournament match (two battles, the result goes to the
  tournament through ``record_online_result``) or to nobody (a *casual* battle between
  two users, ``create_casual_battle``): it just finishes and keeps its scores.
- Timing is quickfire (the tournament's clock) or correspondence (days per move, the
  same clock row and triggers; an expiry loses the game).
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.for_games import RoundError, begin_play, record_engine_result

from . import clock, outages, registry
from .interface import InvalidMove, other_side
from .models import DAY_MS, MAX_CORRESPONDENCE_DAYS, Battle, ClockEvent, Move, clock_fields

log = logging.getLogger(__name__)

REASON_AGREEMENT = "agreement"
REASON_NO_MOVES = "no_legal_move"


class BattleError(Exception):
    """A refused action; ``message`` is shown to the user and nothing changed."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


class StaleVersion(BattleError):
    pass


class NotAllowed(BattleError):
    pass


class InvalidInput(NotAllowed):
    """Refused for what was sent (not a square of the board, not a legal move), whatever
    the battle's state; the other refusals conflict with the state (stale, out of turn)."""


# --- writing -----------------------------------------------------------------------


def _write(battle: Battle, state: clock.ClockState, *, now: datetime, **extra) -> bool:
    """Compare-and-set the battle row to ``state``; update ``battle`` in memory on success."""
    fields = clock_fields(state) | extra
    version = battle.clock_version
    updated = Battle.objects.filter(pk=battle.pk, clock_version=version).update(
        clock_version=version + 1, updated_at=now, **fields
    )
    if updated != 1:
        return False
    for name, value in fields.items():
        setattr(battle, name, value)
    battle.clock_version = version + 1
    transaction.on_commit(
        lambda: after_commit(battle.pk, battle.clock_version, state, battle.end_offered_by)
    )
    return True


def after_commit(battle_id: int, version: int, state: clock.ClockState, offer: str = "") -> None:
    """Publish the new state, and with it the new due time for the clock timers."""
    from . import events, signals

    events.publish_state(battle_id, version, state, offer=offer)
    signals.turn_changed.send(
        sender=Battle,
        battle_id=battle_id,
        version=version,
        side_to_move=state.side_to_move,
        status=state.status,
    )


def _load(battle_id: int) -> Battle:
    return Battle.objects.select_related("match").get(pk=battle_id)


def _event(
    battle: Battle, kind: str, *, now: datetime, via: str, ply=None, due=None, detail: str = ""
) -> None:
    ClockEvent.objects.create(
        battle=battle,
        ply=battle.ply if ply is None else ply,
        kind=kind,
        due_at=due,
        applied_at=now,
        via=via,
        detail=detail,
    )


# --- settle: the one place an expiry is applied --------------------------------------


def settle(battle_id: int, *, via: str, now: datetime | None = None) -> Battle:
    """Apply a due expiry of the current turn, once. Safe to call any number of times."""
    now = now or timezone.now()
    with transaction.atomic():
        battle = _load(battle_id)
        state = battle.clock_state
        if not clock.expiry_due(state, now):
            return battle
        due = clock.due_at(state)
        new, kind = clock.resolve_timeout(state, now, outages.site_seen_at())
        if kind == clock.EXPIRY_WAITS:
            return battle  # nobody has seen the site up since the deadline: not yet
        extra = {}
        if kind == clock.TURN_EXPIRED and battle.mode == Battle.Mode.ONLINE and battle.board:
            game = battle.rules
            position = game.pass_turn(game.deserialise(battle.board))
            extra["board"] = game.serialise(position)
            new = _check_end(battle, new, position)
        forfeited_ply, side = battle.ply, battle.side_to_move
        if not _write(battle, new, now=now, **extra):
            return _load(battle_id)  # someone else settled (or moved) first
        _event(battle, kind, now=now, via=via, ply=forfeited_ply, due=due)
        if kind == clock.TURN_EXPIRED:
            Move.objects.create(
                battle=battle,
                ply=forfeited_ply,
                side=side,
                kind=Move.Kind.FORFEIT,
                submitted_at=now,
                clock_version_before=battle.clock_version - 1,
            )
        if new.status == clock.FINISHED:
            _finished(battle, now=now)
    return battle


def settle_due(*, via: str, now: datetime | None = None, limit: int = 500) -> int:
    """Settle every running battle whose expiry is due (the beat sweeper's body)."""
    fixed_now = now
    now = now or timezone.now()
    candidates = Battle.objects.filter(status=Battle.Status.RUNNING, deadline__lte=now)
    settled = 0
    for battle_id, deadline, grace_ms in candidates.values_list(
        "pk", "deadline", "grace_ms"
    ).order_by("deadline")[:limit]:
        if deadline + timedelta(milliseconds=grace_ms) <= now:
            before = Battle.objects.filter(pk=battle_id).values_list("clock_version", flat=True)
            version = before.first()
            # Each settle reads the clock afresh: a long sweep must not stamp its later
            # expiries with the time it started.
            battle = settle(battle_id, via=via, now=fixed_now)
            settled += int(battle.clock_version != version)
    return settled


def _check_end(battle: Battle, state: clock.ClockState, position) -> clock.ClockState:
    """Finish the clock when the game says play is over (e.g. no legal move)."""
    if state.status == clock.RUNNING:
        outcome = battle.rules.outcome(position)
        if outcome is not None:
            return clock.finish(state, outcome.reason)
    return state


# --- starting ---------------------------------------------------------------------------


def create_battles(match, *, mode: str = Battle.Mode.ONLINE) -> list[Battle]:
    """Create both battles of ``match`` (pending), copying the tournament's clock settings.

    The tournament is told first (``begin_play``): it refuses a round that may not be
    played and freezes the pairing, so the battles' players stay the match's players.
    Existing battles are returned as they are (a second click, a second player).
    """
    with transaction.atomic():
        try:
            match = begin_play(match, players=(match.player_a_id, match.player_b_id))
        except RoundError as exc:
            raise NotAllowed(str(exc)) from None
        return _create_battles(match, mode=mode)


def _create_battles(match, *, mode: str) -> list[Battle]:
    """Both battles of ``match`` in the tournament's game, seats swapped: player A has the
    first side in battle 1, player B in battle 2. A game with a drawn board (Cavalli)
    plays both battles on the same board: one seed, drawn once, stored on both."""
    t = match.round.tournament
    rules = registry.get(t.game)
    seed = None
    if rules.key != registry.DEFAULT:
        existing = [b.board_seed for b in match.battles.all() if b.board_seed is not None]
        seed = existing[0] if existing else secrets.randbelow(1_000_000)
    common = {
        "match": match,
        "game": rules.key,
        "side_to_move": rules.sides[0].key,
        "board_seed": seed,
        "mode": mode,
        "max_plies": t.max_plies,
        "timed": t.is_timed,
        "think_ms": t.think_ms,
        "move_ms": t.move_ms,
        "grace_ms": t.grace_ms,
        "commit_rule": t.commit_rule,
        "max_consecutive_forfeits": t.max_consecutive_forfeits,
        "outage_threshold_ms": t.outage_threshold_ms,
        "capture_policy": t.capture_policy,
    }
    pair = [
        Battle.objects.get_or_create(
            match=match,
            number=1,
            defaults=common | {"first_entry": match.player_a, "second_entry": match.player_b},
        )[0],
        Battle.objects.get_or_create(
            match=match,
            number=2,
            defaults=common | {"first_entry": match.player_b, "second_entry": match.player_a},
        )[0],
    ]
    if any(b.match_players != (match.player_a_id, match.player_b_id) for b in pair):
        raise NotAllowed(_("These battles were started for other players."))
    return pair


def create_casual_battle(
    *,
    game: str,
    first,
    second,
    timing: str = Battle.Timing.QUICKFIRE,
    days: int = 3,
    board_seed: int | None = None,
    now: datetime | None = None,
) -> Battle:
    """Create and start a battle between two users outside any tournament.

    ``first`` plays the game's first side (the one that moves first). Quickfire uses the default clock (an expiry
    forfeits the turn; with no referee, too many in a row lose the game);
    correspondence gives ``days`` (1..14) per move and an expiry loses the game.
    Raises ``NotAllowed`` (nothing created) for an unknown game, bad timing or days, or
    a user playing themself.
    """
    now = now or timezone.now()
    try:
        rules = registry.get(game)
    except registry.UnknownGame:
        raise NotAllowed(_("Unknown game.")) from None
    if first is None or second is None or first.pk == second.pk:
        raise NotAllowed(_("A battle needs two different players."))
    timing_fields = {}
    if timing == Battle.Timing.CORRESPONDENCE:
        if not 1 <= days <= MAX_CORRESPONDENCE_DAYS:
            raise NotAllowed(
                _("Days per move must be between 1 and %(max)d.") % {"max": MAX_CORRESPONDENCE_DAYS}
            )
        timing_fields = {
            "think_ms": days * DAY_MS,
            "move_ms": 0,
            "commit_rule": "none",
            "timeout_rule": Battle.TimeoutRule.LOSE_GAME,
        }
    elif timing != Battle.Timing.QUICKFIRE:
        raise NotAllowed(_("Unknown timing."))
    if board_seed is None and rules.key != registry.DEFAULT:
        board_seed = secrets.randbelow(1_000_000)
    with transaction.atomic():
        battle = Battle.objects.create(
            game=rules.key,
            match=None,
            number=1,
            first_user=first,
            second_user=second,
            side_to_move=rules.sides[0].key,
            timing=timing,
            board_seed=board_seed,
            **timing_fields,
        )
        _start(battle, now=now, via=ClockEvent.Via.PLAYER)
    return battle


def start_battle(
    battle_id: int, *, via: str = ClockEvent.Via.REFEREE, now: datetime | None = None
) -> Battle:
    now = now or timezone.now()
    with transaction.atomic():
        battle = _load(battle_id)
        _start(battle, now=now, via=via)
    return battle


def _start(battle: Battle, *, now: datetime, via: str) -> None:
    if battle.status != Battle.Status.PENDING:
        raise NotAllowed(_("This battle has already started."))
    extra = {}
    if battle.mode == Battle.Mode.ONLINE:
        game = battle.rules
        position = game.initial_state({"board_seed": battle.board_seed})
        extra = {"board": game.serialise(position), **game.row_fields(position)}
    if not _write(battle, clock.start(battle.clock_state, now), now=now, **extra):
        raise StaleVersion(_("The battle changed meanwhile; please try again."))
    _event(battle, ClockEvent.Kind.STARTED, now=now, via=via)


def _final_scores(battle: Battle) -> dict:
    """The finished battle's scores and winner by side key (online battles only).

    Lost on time: the side that was to move loses, whatever the scores say.
    """
    game = battle.rules
    position = game.deserialise(battle.board) if battle.board else game.initial_state()
    scores = game.scores(position)
    if battle.finished_reason == clock.REASON_TIME:
        winner = other_side(game, battle.side_to_move)
    else:
        first, second = (scores[info.key] for info in game.sides)
        winner = "" if first == second else game.sides[0 if first > second else 1].key
    return {"scores": scores, "winner": winner}


def _finished(battle: Battle, *, now: datetime) -> None:
    """Store the scores; battle 1 of an online match starts battle 2; both done
    records the match result. A casual battle just ends."""
    if battle.mode != Battle.Mode.ONLINE:
        return
    result = _final_scores(battle)
    Battle.objects.filter(pk=battle.pk).update(**result)
    for name, value in result.items():
        setattr(battle, name, value)
    if battle.is_casual:
        return
    battles = {b.number: b for b in Battle.objects.filter(match_id=battle.match_id)}
    if battle.number == 1 and 2 in battles and battles[2].status == Battle.Status.PENDING:
        _start(battles[2], now=now, via=ClockEvent.Via.PLAYER)
        return
    if all(b.status == Battle.Status.FINISHED for b in battles.values()) and len(battles) == 2:
        record_online_result(battle.match, battles[1], battles[2])


def record_online_result(match, b1: Battle, b2: Battle) -> None:
    """Hand the engine-verified result to the tournament, for the players who played it
    (a refusal is logged there and leaves the result to the referees)."""
    record_engine_result(
        match,
        battle_1=b1.result_numbers,
        battle_2=b2.result_numbers,
        game=b1.game,
        players=b1.match_players,
    )


# --- moves --------------------------------------------------------------------------


def _checked(battle_id: int, *, side: str | None, version: int, now: datetime) -> Battle:
    """Settle first, then refuse anything out of turn or stale. ``settle`` returns the
    battle as stored after it (loaded afresh when another writer came first)."""
    battle = settle(battle_id, via=ClockEvent.Via.READ, now=now)
    if battle.status == Battle.Status.FINISHED:
        raise NotAllowed(_("This battle is over."))
    if battle.status != Battle.Status.RUNNING:
        raise NotAllowed(_("The clock is stopped."))
    if side is not None and side != battle.side_to_move:
        raise NotAllowed(_("It is not your turn."))
    if version != battle.clock_version:
        raise StaleVersion(
            _(
                "The battle changed meanwhile (a move or the clock); "
                "look at the board and try again."
            )
        )
    if not clock.move_in_time(battle.clock_state, now):
        raise NotAllowed(_("Too late: your time for this turn ran out."))
    return battle


def submit_move(
    battle_id: int, *, side: str, version: int, notation: str = "", now: datetime | None = None
) -> Battle:
    """Apply one move by ``side``. For over-the-board battles ``notation`` may be empty."""
    now = now or timezone.now()
    try:
        battle = _checked(battle_id, side=side, version=version, now=now)
    except BattleError:
        # A move submitted twice (same version, same text) was applied once: say so quietly.
        # (An empty notation: the page could not rebuild the move from the new position.)
        done = Move.objects.filter(
            battle_id=battle_id, clock_version_before=version, side=side
        ).exclude(kind="forfeit")
        if notation:
            done = done.filter(notation=notation)
        if done.exists():
            return _load(battle_id)
        raise
    with transaction.atomic():
        new = clock.after_move(battle.clock_state, now)
        kind, captures, extra, text = Move.Kind.OTB, [], {}, notation
        if battle.mode == Battle.Mode.ONLINE:
            info, position = _play(battle, notation)
            text, kind, captures = info.notation, info.kind, list(info.captures)
            extra = {
                "board": battle.rules.serialise(position),
                **battle.rules.row_fields(position),
                "end_offered_by": "",
            }
            new = _check_end(battle, new, position)
        ply = battle.ply
        if not _write(battle, new, now=now, **extra):
            raise StaleVersion(_("The battle changed meanwhile; your move was not applied."))
        Move.objects.create(
            battle=battle,
            ply=ply,
            side=side,
            notation=text,
            kind=kind,
            captures=captures,
            submitted_at=now,
            clock_version_before=version,
        )
        if new.status == clock.FINISHED:
            _finished(battle, now=now)
    return battle


def _play(battle: Battle, notation: str):
    game = battle.rules
    try:
        position, info = game.apply(game.deserialise(battle.board), notation)
    except InvalidMove as exc:
        raise InvalidInput(_("That move is not legal here.")) from exc
    moved_from = info.extra.get("from")
    if battle.touched_square and moved_from and moved_from != battle.touched_square:
        raise NotAllowed(
            _("You touched %(square)s: you must move that piece.")
            % {"square": battle.touched_square}
        )
    return info, position


def board_square(battle: Battle, text: str) -> str:
    """The canonical name of the square of the battle's board that ``text`` names
    (``f1`` -> ``F1``, as the move parser reads it); ``InvalidInput`` for anything else."""
    try:
        return battle.rules.square_name(text)
    except InvalidMove:
        raise InvalidInput(
            _("“%(square)s” is not a square of this board.") % {"square": text[:12]}
        ) from None


def touch(
    battle_id: int, *, side: str, version: int, square: str = "*", now: datetime | None = None
) -> Battle:
    """Touch a piece (the touch rule ends think at once). ``*`` = over-the-board touch."""
    now = now or timezone.now()
    battle = _checked(battle_id, side=side, version=version, now=now)
    if battle.mode == Battle.Mode.ONLINE:
        game = battle.rules
        square = board_square(battle, square)  # stored as the game names it
        if not game.owns(game.deserialise(battle.board), square):
            raise InvalidInput(_("Touch one of your own pieces."))
    if battle.touched_square == square:
        return battle
    try:
        new = clock.touch(battle.clock_state, now, square)
    except clock.ClockError as exc:
        raise NotAllowed(
            _("You have already touched %(square)s.") % {"square": battle.touched_square}
        ) from exc
    with transaction.atomic():
        if not _write(battle, new, now=now):
            raise StaleVersion(_("The battle changed meanwhile; try again."))
        _event(battle, ClockEvent.Kind.TOUCHED, now=now, via=ClockEvent.Via.PLAYER, detail=square)
    return battle


# --- ending by agreement ----------------------------------------------------------------


def offer_end(battle_id: int, *, side: str) -> Battle:
    """Offer to end the battle. An offer does not touch the clock (no version bump)."""
    settle(battle_id, via=ClockEvent.Via.READ)
    updated = Battle.objects.filter(
        pk=battle_id, status__in=[Battle.Status.RUNNING, Battle.Status.PAUSED]
    ).update(end_offered_by=side)
    battle = _load(battle_id)
    if not updated:
        raise NotAllowed(_("This battle cannot be ended now."))
    transaction.on_commit(
        lambda: after_commit(
            battle.pk, battle.clock_version, battle.clock_state, battle.end_offered_by
        )
    )
    return battle


def decline_end(battle_id: int, *, side: str) -> Battle:
    Battle.objects.filter(pk=battle_id).exclude(end_offered_by=side).update(end_offered_by="")
    battle = _load(battle_id)
    transaction.on_commit(
        lambda: after_commit(
            battle.pk, battle.clock_version, battle.clock_state, battle.end_offered_by
        )
    )
    return battle


def accept_end(battle_id: int, *, side: str, now: datetime | None = None) -> Battle:
    now = now or timezone.now()
    settle(battle_id, via=ClockEvent.Via.READ, now=now)
    with transaction.atomic():
        battle = _load(battle_id)
        if not battle.end_offered_by or battle.end_offered_by == side:
            raise NotAllowed(_("There is no offer from your opponent to accept."))
        if battle.status not in (Battle.Status.RUNNING, Battle.Status.PAUSED):
            raise NotAllowed(_("This battle cannot be ended now."))
        if not _write(battle, clock.finish(battle.clock_state, REASON_AGREEMENT), now=now):
            raise StaleVersion(_("The battle changed meanwhile; try again."))
        _event(battle, ClockEvent.Kind.END_AGREED, now=now, via=ClockEvent.Via.PLAYER)
        _finished(battle, now=now)
    return battle


# --- referee ----------------------------------------------------------------------------


def _referee_write(
    battle_id: int,
    change,
    kind: str,
    *,
    now: datetime,
    detail: str = "",
    attempts: int = 3,
    via: str = ClockEvent.Via.REFEREE,
    **extra,
) -> Battle:
    """Apply a referee transition, retrying if a move or expiry landed in between."""
    for _attempt in range(attempts):
        settle(battle_id, via=ClockEvent.Via.READ, now=now)
        with transaction.atomic():
            battle = _load(battle_id)
            try:
                new = change(battle.clock_state)
            except clock.ClockError as exc:
                raise NotAllowed(_("Not possible in the battle's current state.")) from exc
            if _write(battle, new, now=now, **extra):
                _event(battle, kind, now=now, via=via, detail=detail)
                if new.status == clock.FINISHED:
                    _finished(battle, now=now)
                return battle
    raise StaleVersion(_("The battle kept changing; try again."))


def pause(
    battle_id: int, *, now: datetime | None = None, reason: str = clock.REASON_REFEREE
) -> Battle:
    now = now or timezone.now()
    return _referee_write(
        battle_id,
        lambda s: clock.pause(s, now, reason),
        ClockEvent.Kind.PAUSED,
        now=now,
        detail=reason,
    )


def resume(
    battle_id: int,
    *,
    now: datetime | None = None,
    reason: str = "",
    via: str = ClockEvent.Via.REFEREE,
) -> Battle:
    """Resume a pause, or let a battle waiting for a referee continue (fresh turn).
    ``reason`` is kept on the event; a player's ask to resume is spent."""
    now = now or timezone.now()
    return _referee_write(
        battle_id,
        lambda s: clock.resume(s, now),
        ClockEvent.Kind.RESUMED,
        now=now,
        detail=reason[:200],
        via=via,
        resume_asked_by="",
        resume_asked_version=None,
    )


def give_time(battle_id: int, *, ms: int, now: datetime | None = None) -> Battle:
    now = now or timezone.now()
    return _referee_write(
        battle_id,
        lambda s: clock.give_time(s, now, ms),
        ClockEvent.Kind.TIME_GIVEN,
        now=now,
        detail=str(ms),
    )


def referee_decision(battle_id: int, *, reason: str = "", now: datetime | None = None) -> Battle:
    """End the battle now by a referee's decision (also resolves ``needs_referee``)."""
    now = now or timezone.now()

    def end(s: clock.ClockState) -> clock.ClockState:
        if s.status in (clock.FINISHED, clock.PENDING):
            raise clock.ClockError("not in play")
        return clock.finish(s, clock.REASON_REFEREE)

    return _referee_write(battle_id, end, ClockEvent.Kind.DECISION, now=now, detail=reason[:200])


def pause_round(round_id: int, *, now: datetime | None = None) -> int:
    """Pause every running battle of a round at once (one transaction)."""
    now = now or timezone.now()
    paused = 0
    with transaction.atomic():
        ids = list(
            Battle.objects.filter(
                match__round_id=round_id, status=Battle.Status.RUNNING
            ).values_list("pk", flat=True)
        )
        for battle_id in ids:
            try:
                pause(battle_id, now=now)
                paused += 1
            except NotAllowed:
                pass  # finished or waiting for a referee meanwhile
    return paused
