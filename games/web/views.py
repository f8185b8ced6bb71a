"""Battle pages for players and spectators: the board, moves and touches (the live streams
are ``games.web.views_events``'s).

Every view goes through a gate of ``games.web.permissions`` first (404 for what does not
exist or may not be seen), then settles the battle's clock (settle-on-read) and calls
one workflow function of ``games.battles``.
An htmx POST gets the re-rendered board fragment; a plain POST is redirected. A refusal
answers 409 (stale version, out of turn, the battle's state) or 400 (not a square, not a
legal move) with its message in the board: the fragment for htmx (``base.html`` tells
htmx to swap those), else the whole battle page. Someone not seated gets the gate's 403.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.archive import export as archive
from games.battles import agreements, joining
from games.battles.errors import BattleError
from games.battles.play import (
    accept_end,
    board_square,
    decline_end,
    may_resign,
    offer_end,
    resign,
    submit_move,
)
from games.battles.play import touch as touch_piece
from games.battles.settle import settle
from games.live.quarantine import set_aside
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules.interface import InvalidMove
from games.web import permissions, presenters, presenters_play
from games.web.board_cache import board_cache_key
from games.web.views_board import board, choice_refused, int_or, refused, refuses_unreadable
from thud_site.http import HtmxHttpRequest


def settled(request: HtmxHttpRequest, battle_id: int, gate) -> Battle:
    """The battle through ``gate``, then its clock settled (re-read if that changed it).
    Settle starts from the gate's read of the battle: one query less on every page."""
    battle = gate(request.user, battle_id)
    version = battle.clock_version  # settle's write updates ``battle`` in memory
    try:
        after = settle(battle_id, via=ClockEvent.Via.READ, now=timezone.now(), loaded=battle)
    except Exception as error:
        if battle.board_readable:
            raise
        # A board its engine cannot read: set aside as the clock does (games.live.quarantine).
        set_aside(
            [(battle.pk, battle.clock_version, error)], via=ClockEvent.Via.READ, now=timezone.now()
        )
        return gate(request.user, battle_id)
    if after.clock_version != version:
        battle = gate(request.user, battle_id)
    return battle


@require_GET
def battle_page(request: HtmxHttpRequest, battle_id: int):
    battle = settled(request, battle_id, permissions.access_battle_public)
    if not battle.board_readable:
        return render(request, "games/battle_unreadable.html", {"battle": battle})
    side = permissions.battle_side_of(request.user, battle)
    now = timezone.now()
    # A capture choice the player is making (?sq=…&to=…, see presenters.choice_url) is
    # shown again after a reload or a live refresh while the battle still offers it.
    src, dst = request.GET.get("sq", ""), request.GET.get("to", "")
    choice = presenters.pending_choice(battle, side, src=src, dst=dst)
    context = presenters.board_context(
        battle, side, now=now, selected=src, choice=choice, choice_from=src, choice_to=dst
    )
    context["presence"] = joining.presence_view(battle, side, now=now)
    context["board_cache_key"] = board_cache_key(battle, side, selected=src, choice=choice)
    if battle.status in (Battle.Status.PAUSED, Battle.Status.NEEDS_REFEREE):
        context["can_arbitrate"] = permissions.can_arbitrate(request.user, battle)
    template = "games/battle.html#board-panel" if request.htmx else "games/battle.html"
    return render(request, template, context)


@require_GET
def battle_diagram(request: HtmxHttpRequest, battle_id: int):
    """The current position as a read-only, printable diagram (the live board's renderer);
    ``?ply=N``: the position after N plies of the battle's record (from the replay)."""
    battle = settled(request, battle_id, permissions.access_battle_public)
    if not battle.board_readable:
        return HttpResponse(
            _("This battle's record cannot be read."),
            status=410,
            content_type="text/plain; charset=utf-8",
        )
    if "ply" in request.GET:
        permissions.access_battle_replay(request.user, battle.pk)
        moves = archive.moves_of(archive.with_moves(Battle.objects.filter(pk=battle.pk)).get())
        ply = presenters.ply_in(request.GET["ply"], moves)
        if ply is None:
            return HttpResponseBadRequest(presenters.bad_ply_message(moves))
        context = presenters.replay_diagram_context(battle, moves, ply, now=timezone.now())
    else:
        context = presenters.diagram_context(battle, now=timezone.now())
    return render(request, "games/diagram.html", context)


@require_POST
@refuses_unreadable
def touch(request: HtmxHttpRequest, battle_id: int):
    battle, side = permissions.access_battle_for_player(request.user, battle_id)
    square = request.POST.get("square", "")
    if battle.commit_rule != "touch":  # selection only; nothing binding to store
        try:
            square = board_square(battle, square)
        except BattleError as exc:
            return refused(request, battle_id, side, exc)
        return board(request, battle, side, selected=square)
    try:
        battle = touch_piece(
            battle_id,
            side=side,
            version=int_or(request.POST.get("version")),
            square=square,
            now=timezone.now(),
        )
    except BattleError as exc:
        return refused(request, battle_id, side, exc)
    return board(request, battle, side)


@require_POST
@refuses_unreadable
def move(request: HtmxHttpRequest, battle_id: int):
    battle, side = permissions.access_battle_for_player(request.user, battle_id)
    if "notation" in request.POST:  # typed: the whole move at once, in the game's notation
        return _typed_move(request, battle, side)
    src, dst = request.POST.get("from", ""), request.POST.get("to", "")
    try:
        candidates = battle.rules.candidates(presenters.state_of(battle), src, dst)
    except (InvalidMove, ValueError):
        candidates = []
    if len(candidates) > 1 and "confirm" not in request.POST:
        return board(
            request, battle, side, selected=src, choice=candidates, choice_from=src, choice_to=dst
        )
    wanted = set(request.POST.getlist("captures"))
    chosen = [m for m in candidates if set(m.captures) == wanted]
    if len(candidates) > 1 and not chosen:
        return board(request, battle, side, error=choice_refused(battle), status=400)
    notation = (chosen[0] if chosen else candidates[0]).notation if candidates else ""
    try:
        battle = submit_move(
            battle_id,
            side=side,
            version=int_or(request.POST.get("version")),
            notation=notation,
            now=timezone.now(),
        )
    except BattleError as exc:
        return refused(request, battle_id, side, exc)
    return board(request, battle, side)


def _typed_move(request: HtmxHttpRequest, battle: Battle, side):
    """A move typed in the game's notation (the keyboard players' text box)."""
    text = request.POST["notation"]
    try:
        # Out of turn: the workflow refuses it in its own words, whatever was typed.
        notation = (
            presenters_play.typed_move(battle.rules, presenters.state_of(battle), text)
            if battle.side_to_move == side
            else text
        )
    except InvalidMove as exc:
        return board(request, battle, side, error=str(exc), status=400)
    try:
        battle = submit_move(
            battle.pk,
            side=side,
            version=int_or(request.POST.get("version")),
            notation=notation,
            now=timezone.now(),
        )
    except BattleError as exc:
        return refused(request, battle.pk, side, exc)
    return board(request, battle, side)


@require_POST
@refuses_unreadable
def end_offer(request: HtmxHttpRequest, battle_id: int, action: str):
    _battle, side = permissions.access_battle_for_player(request.user, battle_id)
    operation = {
        "offer": offer_end,
        "accept": accept_end,
        "decline": decline_end,
        "withdraw": agreements.withdraw_end,
    }.get(action)
    if operation is None:
        return HttpResponse(status=404)
    return _act(
        request, battle_id, side, lambda: operation(battle_id, side=side, now=timezone.now())
    )


@require_POST
@refuses_unreadable
def resign_battle(request: HtmxHttpRequest, battle_id: int):
    """A player resigns a casual battle. Destructive: without ``confirm`` it asks first,
    saying the score it ends with and who wins (400: nothing was done); the answer posts
    ``confirm`` with the version the question was asked at."""
    battle, side = permissions.access_battle_for_player(request.user, battle_id)
    if settle(battle_id, via=ClockEvent.Via.READ, now=timezone.now()).is_finished:
        battle, side = permissions.access_battle_for_player(request.user, battle_id)
    if "confirm" not in request.POST and may_resign(battle):
        question = {
            "outcome": presenters.resign_outcome(battle, side),
            "version": battle.clock_version,
        }
        return board(request, battle, side, confirm_resign=question, status=400)
    version = int_or(request.POST.get("version"))
    return _act(
        request,
        battle_id,
        side,
        lambda: resign(battle_id, side=side, version=version, now=timezone.now()),
    )


def _act(request: HtmxHttpRequest, battle_id: int, side: str, action) -> HttpResponse:
    """Run a player's ``action`` on the battle: the fresh board, or the refusal's."""
    try:
        action()
    except BattleError as exc:
        return refused(request, battle_id, side, exc)
    # Read again through the gate: the page needs the seats the workflow did not load.
    return board(request, permissions.access_battle_public(request.user, battle_id), side)


@require_POST
@refuses_unreadable
def ask_resume(request: HtmxHttpRequest, battle_id: int):
    """A player of a paused casual battle asks to resume it (both must)."""
    _battle, side = permissions.access_casual_battle_for_player(request.user, battle_id)
    return _act(
        request,
        battle_id,
        side,
        lambda: agreements.ask_resume(battle_id, side=side, now=timezone.now()),
    )


@require_POST
@refuses_unreadable
def ready(request: HtmxHttpRequest, battle_id: int):
    """A player says they are at the battle; the second of the two starts its clock. The
    page says whether it is seen (``visibility``): a hidden one does not join."""
    _battle, side = permissions.access_battle_for_player(request.user, battle_id)
    seen = request.POST.get("visibility", "")
    return _act(
        request,
        battle_id,
        side,
        lambda: joining.join(battle_id, side=side, now=timezone.now(), visibility=seen),
    )


@require_POST
@refuses_unreadable
def no_show(request: HtmxHttpRequest, battle_id: int):
    """A player alone past the join window claims the opponent a no-show."""
    _battle, side = permissions.access_battle_for_player(request.user, battle_id)
    by_name = request.user.get_username()
    return _act(
        request,
        battle_id,
        side,
        lambda: joining.claim_no_show(battle_id, side=side, by_name=by_name, now=timezone.now()),
    )


@require_POST
def nudge(request: HtmxHttpRequest, battle_id: int):
    """A client's countdown reached 0: settle (the server decides), nothing else."""
    battle = permissions.access_battle_public(request.user, battle_id)
    if not battle.board_readable:  # what the page's read does: set aside, as the clock would
        settled(request, battle_id, permissions.access_battle_public)
        return HttpResponse(status=204)
    settle(battle_id, via=ClockEvent.Via.NUDGE, now=timezone.now())
    return HttpResponse(status=204)


@require_POST
def start_online(request: HtmxHttpRequest, match_id: int):
    match = permissions.access_match_for_battle_start(request.user, match_id)
    try:
        # A timed battle waits for both players; the one who clicked has joined it.
        b1 = joining.play_online(
            match,
            side_of=lambda battle: permissions.battle_side_of(request.user, battle),
            now=timezone.now(),
        )
    except BattleError as exc:
        messages.error(request, exc.message)
        return redirect("games:match", match_id=match.pk)
    return redirect("games:battle", battle_id=b1.pk)


@require_GET
def match_battles(request: HtmxHttpRequest, match_id: int):
    """Both battles of a match, with the ways to start play this user is allowed."""
    match = permissions.access_match_public(request.user, match_id)
    tournament = match.round.tournament
    is_referee = permissions.can_referee(request.user, tournament)
    is_player = permissions.player_entry_in_match(request.user, match) is not None
    battles = list(match.battles.all())
    context = {
        "match": match,
        "battles": battles,
        # Battles with moves to replay (one query, however many moves), in a game that has
        # replays.
        "replayable": set(
            Move.objects.filter(battle__match=match)
            .exclude(notation="")
            .values_list("battle_id", flat=True)
            .distinct()
        )
        & {b.pk for b in battles if permissions.has_replay(b.rules)},
        "can_start_online": (is_referee or is_player) and not match.is_bye,
        "can_referee": is_referee and not match.is_bye,
        "is_player": is_player,
    }
    return render(request, "games/match.html", context)
