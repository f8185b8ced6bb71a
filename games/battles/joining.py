"""Joining a battle that waits for its players, and claiming an absent opponent a no-show.

The rules are ``games.rules.presence`` (pure); this module applies them under the battle's row
lock (``SELECT … FOR UPDATE``), so two players joining at once start the clock exactly
once: the second to take the lock sees the first's join and starts it
(``starting.start``, in the same transaction). A join that changes nothing (joined
already, the battle started or never waited) writes nothing.

- A join counts only from a page its player can see (``presence.counts_as_present``): a
  battle page left in a background tab joins when it is looked at, or on *Ready*.
- A first join bumps the clock version (the other player's page shows "your opponent is
  here") and tells the opponent at once on their own channel (``publish.publish_notices``,
  on commit), whatever page they have open.
- A published round tells each of its players the same way (``on_round_published``).
- A no-show claim, once the join window has passed: a casual battle is cancelled
  (finished, reason ``no_show``, no winner; ``casual_battle_finished`` tells ``play``); a tournament battle waits for a referee
  (``needs_referee``, reason ``no_show_claimed``) on its opening position, and the claim
  is kept as a ``ClockEvent`` (who, when). Refused claims raise ``NotAllowed`` and change
  nothing.
- A casual battle still waiting for its players when it expires (``presence.expires_at``,
  found by the beat, ``expire_unjoined``) ends with no result: reason ``no_show`` when one
  player had joined (the other did not come, as if claimed), ``never_started`` when nobody
  had; ``casual_battle_finished`` tells ``play`` (a match's battle 2 decides the match).
  A tournament battle is left to its referee.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.battles import store
from games.battles.errors import NotAllowed, StaleVersion
from games.battles.starting import create_battles, start
from games.events import publish
from games.events.signals import casual_battle_finished
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.models.reasons import NEVER_STARTED, NO_SHOW, NO_SHOW_CLAIMED
from games.rules import clock, presence
from games.rules.interface import side_keys
from tournaments.for_games import players_of_round

#: A waiting battle's notice to a player: "their opponent is there".
WAITING = "waiting"
#: Battle 1 of a match is over: "battle 2 waits for you".
NEXT = "next"
#: A published round's notice to each of its players: "your match is ready".
ROUND = "round"
#: An online battle's end, to its two players (the pages show no notice for it: their
#: board says it; a program's event stream does, ``play.views_api_v1_streams``).
FINISHED = "finished"

REFUSALS = {
    presence.NOT_AWAITING: _("This battle is not waiting for its players."),
    presence.NOT_JOINED: _("Join the battle first: press Ready."),
    presence.OPPONENT_JOINED: _("Your opponent has joined: nobody is missing."),
    presence.TOO_EARLY: _(
        "Your opponent still has time to join; you can claim a no-show when the time to "
        "join has passed."
    ),
}


def _locked(battle_id: int) -> Battle:
    return (
        Battle.objects.select_for_update(of=("self",))
        .select_related("match", "first_entry__player", "second_entry__player")
        .get(pk=battle_id)
    )


def seat_users(battle: Battle) -> tuple[int | None, int | None]:
    """The user ids at the first and the second seat (``None``: a player without one)."""
    if battle.is_casual:
        return battle.first_user_id, battle.second_user_id
    first, second = battle.tournament_entries()
    return first.player.user_id, second.player.user_id


def _seat(battle: Battle, side: str) -> int:
    return side_keys(battle.rules).index(side)


def notice(battle: Battle, kind: str, *, by: str) -> dict:
    """A user notice about ``battle``: its kind, who it is from and where to join."""
    return {
        "kind": kind,
        "battle": battle.pk,
        "url": reverse("games:battle", args=[battle.pk]),
        "from": by,
    }


def seat_name(battle: Battle, seat: int) -> str:
    if battle.is_casual:
        user = battle.first_user if seat == presence.FIRST else battle.second_user
        return user.get_username() if user is not None else ""
    entry = battle.tournament_entries()[seat]
    return entry.player.name


def join(
    battle_id: int,
    *,
    side: str,
    now: datetime,
    via: str = ClockEvent.Via.PLAYER,
    visibility: str = "",
) -> Battle:
    """``side``'s player is at the battle; the second of the two starts its clock. A page
    that says it is hidden (``visibility``) changes nothing: nobody is looking at it."""
    if not presence.counts_as_present(visibility):
        return Battle.objects.get(pk=battle_id)
    with transaction.atomic():
        battle = _locked(battle_id)
        before = battle.presence_state
        if not before.awaiting:
            return battle
        seat = _seat(battle, side)
        after = presence.join(before, seat, now)
        if after == before:
            return battle  # a double tap, a reconnecting stream: joined once
        fields = {
            "first_joined_at": after.first_joined_at,
            "second_joined_at": after.second_joined_at,
        }
        store.event(battle, ClockEvent.Kind.JOINED, now=now, via=via, detail=side)
        if presence.both_joined(after):
            start(battle, now=now, via=via, **fields)
            return battle
        if not store.write(battle, battle.clock_state, now=now, **fields):
            raise StaleVersion(_("The battle changed meanwhile; please try again."))
        opponent = seat_users(battle)[1 - seat]
        if opponent is not None:
            message = notice(battle, WAITING, by=seat_name(battle, seat))
            transaction.on_commit(lambda: publish.publish_notices([(opponent, message)]))
    return battle


def claim_no_show(battle_id: int, *, side: str, by_name: str, now: datetime) -> Battle:
    """``side``'s player, alone past the join window, says the opponent never came."""
    with transaction.atomic():
        battle = _locked(battle_id)
        refusal = presence.no_show_refusal(battle.presence_state, _seat(battle, side), now)
        if refusal is not None:
            raise NotAllowed(REFUSALS[refusal])
        state = battle.clock_state
        extra: dict = {"awaits_players": False}
        if battle.is_casual:
            new = clock.finish(state, NO_SHOW)
            extra |= {"winner": "", "scores": {}}
        else:
            # The referee decides as for any battle waiting for one: resuming starts the
            # first turn, a decision ends it. So it gets its opening position now.
            game = battle.rules
            position = game.initial_state({"board_seed": battle.board_seed})
            extra |= {"board": game.serialise(position), **game.row_fields(position)}
            new = replace(
                clock.start(state, now),
                status=clock.NEEDS_REFEREE,
                turn_started_at=None,
                think_ends_at=None,
                deadline=None,
                paused_reason=NO_SHOW_CLAIMED,
            )
        if not store.write(battle, new, now=now, **extra):
            raise StaleVersion(_("The battle changed meanwhile; please try again."))
        detail = f"claimed by {side} ({by_name})"[:200]
        store.event(
            battle, ClockEvent.Kind.NO_SHOW, now=now, via=ClockEvent.Via.PLAYER, detail=detail
        )
        if battle.is_casual:
            casual_battle_finished.send(sender=Battle, battle=battle, now=now)
    return battle


def expire_unjoined(*, now: datetime) -> int:
    """End every casual battle that waited for its players until it expired as of ``now``
    (``presence.expired``); returns how many. Each is re-read under its lock, so a join
    or a claim meanwhile wins, and a second run (or a redelivered task) changes nothing."""
    # A coarse filter first (not changed for the lifetime); the rule decides under the lock.
    due = Battle.objects.filter(
        match__isnull=True,
        status=Battle.Status.PENDING,
        awaits_players=True,
        updated_at__lte=now - presence.UNJOINED_LIFETIME,
    ).values_list("pk", flat=True)
    ended = 0
    for battle_id in list(due):
        with transaction.atomic():
            battle = _locked(battle_id)
            state = battle.presence_state
            if not battle.is_casual or not presence.expired(state, battle.updated_at, now):
                continue
            reason = NO_SHOW if presence.anyone_joined(state) else NEVER_STARTED
            new = clock.finish(battle.clock_state, reason)
            extra = {"awaits_players": False, "winner": "", "scores": {}}
            if not store.write(battle, new, now=now, **extra):
                continue  # changed meanwhile: the next run looks again
            store.event(
                battle, ClockEvent.Kind.NO_SHOW, now=now, via=ClockEvent.Via.SWEEP, detail=reason
            )
            casual_battle_finished.send(sender=Battle, battle=battle, now=now)
            ended += 1
    return ended


def open_for_players(battle_id: int, *, side: str | None, now: datetime) -> Battle:
    """A pending tournament battle is played online (*Play online*): a timed one now waits
    for its two players, ``side``'s player (``None``: a referee clicked) joining it; an
    untimed one starts at once, as nobody loses time."""
    with transaction.atomic():
        battle = _locked(battle_id)
        if battle.status != Battle.Status.PENDING:
            return battle
        if not presence.needs_players(
            online=battle.mode == Battle.Mode.ONLINE,
            timed=battle.timed,
            correspondence=battle.timing == Battle.Timing.CORRESPONDENCE,
        ):
            start(battle, now=now, via=ClockEvent.Via.PLAYER)
            return battle
        if not battle.awaits_players:
            Battle.objects.filter(pk=battle.pk).update(awaits_players=True)
            battle.awaits_players = True
        if side is not None:
            return join(battle_id, side=side, now=now)
    return battle


def play_online(match, *, side_of: Callable[[Battle], str | None], now: datetime) -> Battle:
    """A tournament match is played online (the match page's *Play online*, or a program's
    ``POST /api/v1/matches/{id}/play``): both battles are created if they are not yet
    (``starting.create_battles``: the tournament freezes the pairing), and battle 1 is
    opened for its players (``open_for_players``), the caller joining it as ``side_of``
    it (``None``: a referee, or a battle already on). Asked twice, or by both players at
    once, it creates and joins once. ``NotAllowed`` for a match played over the board
    (its battles exist as such) or a round that may not be played."""
    first, _second = create_battles(match, mode=Battle.Mode.ONLINE, now=now)
    if first.mode != Battle.Mode.ONLINE:
        raise NotAllowed(_("This match is played over the board."))
    if first.status != Battle.Status.PENDING:
        return first
    return open_for_players(first.pk, side=side_of(first), now=now)


def presence_view(battle: Battle, side: str | None, *, now: datetime) -> dict:
    """What the battle page's presence box shows ``side``'s player (``None``: a
    spectator) as of ``now``: who has joined and whether a no-show may be claimed."""
    state = battle.presence_state
    if not state.awaiting:
        return {"awaiting": False}
    seat = _seat(battle, side) if side is not None else None
    me = state.joined_at(seat) if seat is not None else None
    opponent = state.joined_at(1 - seat) if seat is not None else None
    return {
        "awaiting": True,
        "me_joined": me is not None,
        "opponent_joined": opponent is not None,
        "window_ends_at": presence.window_ends_at(state),
        "window_s": battle.join_window_ms // 1000,
        "claimable": seat is not None and presence.no_show_refusal(state, seat, now) is None,
    }


def on_round_published(sender, *, round_id: int, now: datetime, **kwargs) -> None:
    """Tell every player of a just-published round, on their channel, that their match is
    ready (``tournaments.for_games.round_published``, sent after commit)."""
    notices = [
        (
            user_id,
            {
                "kind": ROUND,
                "match": match_id,
                "url": reverse("games:match", args=[match_id]),
                "from": opponent,
            },
        )
        for user_id, match_id, opponent in players_of_round(round_id)
    ]
    if notices:
        publish.publish_notices(notices)
