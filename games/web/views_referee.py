"""The referee's over-the-board clock page: one physical board, the server's clock.

Big "touched" and "moved" buttons drive the same compare-and-set clock as online
play; pause, resume, give time and decisions are referee transitions. When both
battles are over, the result form of the tournament's game (``forms_referee``, with the
referee entry form's labels and limits) enters the result for normal confirmation.

The page is a tournament battle's referees' and organisers'; a site administrator also
opens a casual battle's, to resume or decide it (``permissions.access_battle_for_arbiter``).
The page of an over-the-board battle beats every second (``referee_beat``): without
its referee's page the battle pauses (``games.rules.referee_presence``). A resume keeps the
reason given, if any; a decision needs one and is asked about first,
saying what it will do, before it ends the battle. Battle 2 of a match starts only once
battle 1 is over (``battles.starting.waits_for``): one board, one page, one clock. The
page tells what happened to the clock meanwhile (``presenters_referee.clock_news``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.battles.errors import BattleError
from games.battles.play import submit_move, touch
from games.battles.referee import give_time, pause, referee_decision, referee_page_seen, resume
from games.battles.referee import pause_round as pause_battles_of_round
from games.battles.starting import create_battles, start_battle, waits_for
from games.events import publish
from games.models.battle import Battle
from thud_site.http import HtmxHttpRequest
from thud_site.prepared import ID_STAND_INS, Prepared

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from games.archive import export as archive
from games.battles import otb_moves
from games.rules.records import movetext
from games.web import permissions, presenters, presenters_referee
from games.web.forms_referee import SurvivorsForm
from games.web.views import settled
from tournaments.for_games import ResultError, enter_referee_result

GIVE_MS = 5_000

#: Of the other battle of a battle's match, only what the panel tells of it: its number and
#: status (every press shows the panel: its query is compiled once, ``Prepared``).
_OTHER_BATTLES = Prepared(
    lambda match_id, battle_id: (
        Battle.objects.filter(match_id=match_id)
        .exclude(pk=battle_id)
        .only("match", "number", "status")
        .order_by()
    ),
    *ID_STAND_INS,
)


def _page_context(
    battle: Battle,
    *,
    error: StrOrPromise = "",
    result_form: forms.Form | None = None,
    confirm_decision: dict | None = None,
    moved: bool = False,
) -> dict:
    match = battle.match  # None for a casual battle
    if match is None:
        siblings = {battle.number: battle}
    else:
        siblings = {b.number: b for b in _OTHER_BATTLES.all(match.pk, battle.pk)}
        siblings[battle.number] = battle
    both_done = len(siblings) == 2 and all(b.is_finished for b in siblings.values())
    if both_done and result_form is None and match is not None:
        result_form = SurvivorsForm(match)
    return {
        "battle": battle,
        "siblings": [siblings[n] for n in sorted(siblings)],
        # Battle 2 starts once battle 1 is over: no start button before (starting.py).
        "waits_for": waits_for(battle, siblings),
        "both_done": both_done,
        "result_form": result_form,
        "match": battle.match,
        "error": error,
        "confirm_decision": confirm_decision,
        "give_s": GIVE_MS // 1000,
        "can_enter_moves": otb_moves.can_enter_moves(battle),
        **presenters.clock_context(battle, now=timezone.now()),
        **presenters_referee.clock_news(battle, moved=moved),
    }


#: The battle row's own columns: what a press of "touched" or "moved" can change.
_ROW_FIELDS = [
    f.attname for f in Battle._meta.concrete_fields if not (f.is_relation or f.primary_key)
]


def _respond(
    request: HtmxHttpRequest,
    battle_id: int,
    *,
    error: StrOrPromise = "",
    pressed: Battle | None = None,
    row: Battle | None = None,
    moved: bool = False,
    confirm_decision: dict | None = None,
    status: int | None = None,
):
    """The fresh panel (htmx) or a redirect. ``pressed``: the battle of a "touched" or
    "moved" press, whose gate already passed in this request and of which only the row
    changed (the hall's most frequent request); ``row``: that row as the press wrote it
    (the workflow returns it, its compare-and-set write applied), else it is read again;
    ``moved``: that write was the press's move (``presenters_referee.clock_news``)."""
    if not request.htmx and confirm_decision is None:
        if error:
            messages.error(request, error)
        return redirect("games:referee_clock", battle_id=battle_id)
    if pressed is not None:
        battle = pressed
        if row is None:
            battle.refresh_from_db(fields=_ROW_FIELDS)
        else:
            for name in _ROW_FIELDS:
                setattr(battle, name, getattr(row, name))
    else:
        battle = permissions.access_battle_for_arbiter(request.user, battle_id)
    context = _page_context(battle, error=error, confirm_decision=confirm_decision, moved=moved)
    page = "games/referee_clock.html"
    # The question is a refusal too: nothing was done until the answer posts "confirm".
    if status is None:
        status = 400 if confirm_decision is not None else 200
    return render(
        request, f"{page}#referee-panel" if request.htmx else page, context, status=status
    )


@require_GET
def referee_clock(request: HtmxHttpRequest, battle_id: int):
    battle = settled(request, battle_id, permissions.access_battle_for_arbiter)
    template = (
        "games/referee_clock.html#referee-panel" if request.htmx else "games/referee_clock.html"
    )
    return render(request, template, _page_context(battle))


@require_POST
def referee_action(request: HtmxHttpRequest, battle_id: int, action: str):
    battle = permissions.access_battle_for_arbiter(request.user, battle_id, action)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1
    side = battle.side_to_move
    reason = request.POST.get("reason", "").strip()
    operations = {
        "start": lambda: start_battle(battle_id, now=timezone.now()),
        # The gate's read of the battle is the press's: settle does not read it again.
        "touched": lambda: touch(
            battle_id, side=side, version=version, now=timezone.now(), loaded=battle
        ),
        "moved": lambda: submit_move(
            battle_id, side=side, version=version, now=timezone.now(), loaded=battle
        ),
        "pause": lambda: pause(battle_id, now=timezone.now()),
        "resume": lambda: resume(battle_id, reason=reason, now=timezone.now()),
        "give": lambda: give_time(battle_id, ms=GIVE_MS, now=timezone.now()),
        "decide": lambda: referee_decision(battle_id, reason=reason, now=timezone.now()),
    }
    if action not in operations:
        return _respond(request, battle_id, error=_("Unknown action."))
    if action == "decide" and not reason:
        error = _("Give the reason for the decision: it is kept with the battle.")
        return _respond(request, battle_id, error=error)
    if action == "decide" and not battle.board_readable:
        # Its score as it stands cannot be counted from a board its engine cannot read.
        error = _(
            "This battle's record cannot be read, so its score cannot be counted: "
            "nothing was decided."
        )
        return _respond(request, battle_id, error=error, status=409)
    if action == "decide" and "confirm" not in request.POST and not battle.is_finished:
        # Destructive: say what it does and ask first (the answer posts "confirm").
        question = {"reason": reason, "outcome": presenters_referee.decision_outcome(battle)}
        return _respond(request, battle_id, confirm_decision=question)
    if action in ("touched", "moved") and battle.mode != Battle.Mode.OTB:
        # Online battles are moved by their players on the board; a referee "move" would
        # pass a turn without a move on the board.
        return _respond(request, battle_id, error=_("Online battles are moved by their players."))
    pressed = battle if action in ("touched", "moved") else None
    try:
        done = operations[action]()
    except BattleError as exc:
        return _respond(request, battle_id, error=exc.message, pressed=pressed)
    row = done if pressed is not None and isinstance(done, Battle) else None
    # The row's last write is this press's move (not a move submitted twice, returned as
    # stored after later writes): what the panel tells needs nothing more read.
    moved = action == "moved" and row is not None and row.clock_version == version + 1
    return _respond(request, battle_id, pressed=pressed, row=row, moved=moved)


@require_POST
def referee_beat(request: HtmxHttpRequest, battle_id: int):
    """The referee's clock page of an over-the-board battle is there (every second):
    without it the battle pauses (``games.rules.referee_presence``); the beat after it was
    offline resumes it. Answers the battle's clock version, which the page compares with
    what it shows, and that state too when the page shows an older one."""
    battle = permissions.access_battle_for_referee(request.user, battle_id)
    if battle.mode != Battle.Mode.OTB:
        error = _("Only the clock page of an over-the-board battle keeps its battle running.")
        return JsonResponse({"error": str(error)}, status=400)
    try:
        shown = int(request.POST["version"])
    except (KeyError, ValueError):
        error = _("The page did not say which state of the clock it shows.")
        return JsonResponse({"error": str(error)}, status=400)
    now = timezone.now()
    resumed = referee_page_seen(battle, by=request.user.get_username(), now=now)
    current = resumed or battle
    data: dict = {"version": current.clock_version, "resumed": resumed is not None}
    if current.clock_version != shown:  # the page missed a state (its stream was down)
        state = current.clock_state
        offer = current.end_offered_by
        data["state"] = publish.payload(
            current.pk, current.clock_version, state, now=now, offer=offer
        )
    return JsonResponse(data)


@require_POST
def start_otb(request: HtmxHttpRequest, match_id: int):
    match = permissions.access_match_id_for_referee(request.user, match_id)
    try:
        b1, _b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    except BattleError as exc:
        messages.error(request, exc.message)
        return redirect("games:match", match_id=match.pk)
    return redirect("games:referee_clock", battle_id=b1.pk)


@require_POST
def pause_round(request: HtmxHttpRequest, round_id: int):
    round_ = permissions.access_round_id_for_referee(request.user, round_id)
    count = pause_battles_of_round(round_.pk, now=timezone.now())
    text = ngettext("%(count)d battle paused.", "%(count)d battles paused.", count)
    messages.success(request, text % {"count": count})
    # Back to the referee's round page (never to a URL taken from the request).
    return redirect("referee_round", round_.tournament.slug, round_.number)


@require_POST
def survivors(request: HtmxHttpRequest, battle_id: int):
    """The match result of both battles, in the numbers of the tournament's game."""
    battle = permissions.access_battle_for_referee(request.user, battle_id)
    match = battle.tournament_match()
    form = SurvivorsForm(match, request.POST)
    if not form.is_valid():
        # Shown again with each error beside its number; nothing is entered.
        error = _("The result was not entered: check the numbers.")
        context = _page_context(battle, error=error, result_form=form)
        page = "games/referee_clock.html"
        template = f"{page}#referee-panel" if request.htmx else page
        return render(request, template, context, status=400)
    user = request.user
    if not user.is_authenticated:  # the gate admits referees only; never reached
        raise PermissionDenied
    try:
        enter_referee_result(
            match,
            key=form.cleaned_data["key"],
            numbers=form.numbers(),
            by=user,
            players=battle.match_players,
            now=timezone.now(),
        )
    except ResultError as exc:
        return _respond(request, battle_id, error=str(exc))
    messages.success(request, _("Result entered; another person must confirm it."))
    return _respond(request, battle_id)


@require_http_methods(["GET", "POST"])
def enter_otb_moves(request: HtmxHttpRequest, battle_id: int):
    """A referee types in the moves of a finished over-the-board battle."""
    battle = permissions.access_battle_for_referee(request.user, battle_id)
    if not otb_moves.can_enter_moves(battle):
        raise Http404("This battle takes no typed-in moves")
    moves = archive.moves_of(archive.with_moves(Battle.objects.filter(pk=battle.pk)).get())
    text = request.POST.get("moves", "") if request.method == "POST" else movetext(moves)
    error: StrOrPromise = ""
    if request.method == "POST":
        try:
            count = otb_moves.enter_moves(battle, text=text, now=timezone.now())
        except BattleError as exc:
            error = exc.message
        else:
            done = ngettext("%(count)d ply saved.", "%(count)d plies saved.", count)
            messages.success(request, done % {"count": count})
            return redirect("games:replay", battle_id=battle.pk)
    context = {"battle": battle, "text": text, "error": error}
    return render(request, "games/otb_moves.html", context, status=400 if error else 200)
