"""Starting battles: both battles of a tournament match, a casual battle, the clock's start.

A tournament match is played as two battles, seats swapped; the tournament is told first
(``tournaments.for_games.begin_play``), which refuses a round that may not be played and
freezes the pairing. A casual battle is created and started at once, unless it waits
for its players (``await_players``, a challenge accepted: ``games.rules.presence``); a
tournament's online battle 1 always waits for them (``games.battles.joining``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.battles import store
from games.battles.errors import NotAllowed, StaleVersion
from games.engines import registry
from games.models.battle import (
    CASUAL_MOVE_LIMITS,
    DAY_MS,
    DEFAULT_MOVE_LIMIT,
    MAX_CORRESPONDENCE_DAYS,
    Battle,
)
from games.models.history import ClockEvent
from games.rules import clock, presence
from tournaments.for_games import RoundError, begin_play


def create_battles(match, *, mode: str = Battle.Mode.ONLINE, now: datetime) -> list[Battle]:
    """Create both battles of ``match`` (pending), copying the tournament's clock settings.

    The tournament is told first (``begin_play``): it refuses a round that may not be
    played and freezes the pairing, so the battles' players stay the match's players.
    Existing battles are returned as they are (a second click, a second player).
    """
    with transaction.atomic():
        try:
            match = begin_play(match, players=(match.player_a_id, match.player_b_id), now=now)
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
        "join_window_ms": t.join_window_s * 1000,
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
    await_players: bool = False,
    number: int = 1,
    timed: bool = True,
    move_limit: int | None = DEFAULT_MOVE_LIMIT,
    bot_level: int | None = None,
    bot_side: str = "",
    now: datetime,
) -> Battle:
    """Create and start a battle between two users outside any tournament.

    ``number`` is 2 for the second battle of a casual match (``play.matches``; sides
    swapped, same ``board_seed``), 1 otherwise.

    ``await_players``: a battle whose clock would run with nobody there (quickfire,
    ``presence.needs_players``) is left pending until both players join
    (``games.battles.joining``); a correspondence battle starts at once all the same.

    ``first`` plays the game's first side (the one that moves first). Quickfire uses the default clock (an expiry
    forfeits the turn; with no referee, too many in a row lose the game);
    correspondence gives ``days`` (1..14) per move and an expiry loses the game.
    ``timed=False``: a quickfire battle with no clock at all (played against the
    computer). ``bot_level`` and ``bot_side``: the computer plays that side at that level
    (``games.bots.moves``); it is one of the two users all the same.

    ``move_limit``: a quickfire battle ends after that many moves *per side* (one of
    ``CASUAL_MOVE_LIMITS``: ``max_plies`` is twice it) and is scored as it stands, as a
    tournament's quickfire battle is (``clock.REASON_MOVE_LIMIT``). Quickfire Thud is the
    move limit, so a timed battle always has one; ``None`` (no limit, a classic game) is
    only for a battle with no clock. Correspondence has no limit and ignores it.
    Raises ``NotAllowed`` (nothing created) for an unknown game, bad timing, days or move
    limit, or a user playing themself.
    """
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
    else:
        timing_fields = {"max_plies": _quickfire_plies(move_limit, timed=timed)}
        if not timed:
            timing_fields["timed"] = False
    if board_seed is None and rules.key != registry.DEFAULT:
        board_seed = secrets.randbelow(1_000_000)
    with transaction.atomic():
        battle = Battle.objects.create(
            game=rules.key,
            match=None,
            number=number,
            first_user=first,
            second_user=second,
            side_to_move=rules.sides[0].key,
            timing=timing,
            board_seed=board_seed,
            bot_level=bot_level,
            bot_side=bot_side,
            **timing_fields,
        )
        gated = presence.needs_players(
            online=battle.mode == Battle.Mode.ONLINE,
            timed=battle.timed,
            correspondence=timing == Battle.Timing.CORRESPONDENCE,
        )
        if await_players and gated:
            Battle.objects.filter(pk=battle.pk).update(awaits_players=True)
            battle.awaits_players = True
        else:
            start(battle, now=now, via=ClockEvent.Via.PLAYER)
    return battle


def check_move_limit(move_limit: int | None) -> int:
    """``move_limit`` (moves per side) if a casual quickfire battle may have it; else
    ``NotAllowed`` with a message for the player."""
    if move_limit not in CASUAL_MOVE_LIMITS:
        low, high = min(CASUAL_MOVE_LIMITS), max(CASUAL_MOVE_LIMITS)
        raise NotAllowed(
            _("Choose a move limit of %(low)d or %(high)d moves per side.")
            % {"low": low, "high": high}
        )
    return move_limit


def _quickfire_plies(move_limit: int | None, *, timed: bool) -> int | None:
    """A casual quickfire battle's ``max_plies`` for ``move_limit`` moves per side (none
    for a classic game: ``None`` with no clock)."""
    if move_limit is None and not timed:
        return None
    return 2 * check_move_limit(move_limit)


def waits_for(battle: Battle, battles: Mapping[int, Battle]) -> Battle | None:
    """The battle that must finish before ``battle`` starts: battle 1 of a tournament
    match, while it is unfinished, for its battle 2; else None. ``battles``: the match's
    battles by number. One board and one referee page are one battle at a time: a second
    clock would leave the first without its page, and pause it."""
    if battle.match_id is None or battle.number == 1:
        return None
    first = battles.get(1)
    return first if first is not None and not first.is_finished else None


def start_battle(battle_id: int, *, now: datetime, via: str = ClockEvent.Via.REFEREE) -> Battle:
    """Start the clock of a pending battle; battle 2 of a match only once battle 1 is over."""
    with transaction.atomic():
        battle = store.load(battle_id)
        if battle.match_id is not None and waits_for(battle, _of_match(battle.match_id)):
            raise NotAllowed(
                _("Battle 1 of this match is still being played: battle 2 starts once it is over.")
            )
        start(battle, now=now, via=via)
    return battle


def _of_match(match_id: int) -> dict[int, Battle]:
    return {b.number: b for b in Battle.objects.filter(match_id=match_id)}


def start(battle: Battle, *, now: datetime, via: str, **fields) -> None:
    """Start the clock of a pending battle (and set up its board); ``fields`` are written
    with it (the second player's join)."""
    if battle.status != Battle.Status.PENDING:
        raise NotAllowed(_("This battle has already started."))
    extra = {}
    if battle.mode == Battle.Mode.ONLINE:
        game = battle.rules
        position = game.initial_state({"board_seed": battle.board_seed})
        extra = {"board": game.serialise(position), **game.row_fields(position)}
    extra |= fields | {"awaits_players": False}
    if not store.write(battle, clock.start(battle.clock_state, now), now=now, **extra):
        raise StaleVersion(_("The battle changed meanwhile; please try again."))
    store.event(battle, ClockEvent.Kind.STARTED, now=now, via=via)
