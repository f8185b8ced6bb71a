"""Game records and replays: ``record.txt`` downloads, a tournament's records, the replay
and its analysis (asking for it, and the htmx look at it while it runs).

Each view gates first (``games.web.permissions``: a battle of a draft round is a 404 to
everyone but its referees), then reads the battle with its moves in a fixed number of
queries (``games.archive.export``) and renders.
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from games.analysis import runs as analysis_runs
from games.analysis import tasks
from games.archive import export as archive
from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from games.web import permissions, presenters, presenters_analysis
from thud_site.http import AuthedRequest, HtmxHttpRequest

TEXT = "text/plain; charset=utf-8"


def _download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=TEXT)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _battle_with_moves(
    request: HtmxHttpRequest, battle_id: int, access=permissions.access_battle_replay
) -> Battle:
    access(request.user, battle_id)
    return archive.with_moves(Battle.objects.filter(pk=battle_id)).get()


@require_GET
def battle_record(request: HtmxHttpRequest, battle_id: int):
    battle = _battle_with_moves(request, battle_id, permissions.access_battle_record)
    match = battle.tournament_match()
    name = f"{match.round.tournament.slug}-r{match.round.number}-t{match.table}-b{battle.number}"
    return _download(archive.record_text(battle), f"{name}.txt")


@require_GET
def tournament_records(request: HtmxHttpRequest, slug: str):
    """Every battle of the tournament's public rounds, as one file."""
    tournament = permissions.access_tournament_public(slug)
    text = archive.tournament_record_text(archive.tournament_battles(tournament))
    return _download(text, f"{tournament.slug}-records.txt")


@require_GET
def replay(request: HtmxHttpRequest, battle_id: int):
    """The battle move by move; ``?ply=N`` shows the position after N plies, and with
    ``&best=1`` the better move the analysis found for ply N in its place."""
    battle = _battle_with_moves(request, battle_id)
    moves = archive.moves_of(battle)
    ply = presenters.ply_in(request.GET.get("ply", str(len(moves))), moves)
    if ply is None:
        return HttpResponseBadRequest(presenters.bad_ply_message(moves))
    if request.GET.get("best", "0") not in ("0", "1"):
        return HttpResponseBadRequest(_("best must be 0 or 1."))
    context = presenters.replay_context(battle, moves, ply)
    context["players"] = presenters.player_names(battle)
    context |= presenters_analysis.analysis_context(
        battle,
        request.user,
        plies=context["plies"],
        ply=context["ply"],
        last_ply=context["last_ply"],
        moves=moves,
        best=request.GET.get("best") == "1",
    )
    return render(request, "games/replay.html", context)


def _asked_message(asked: analysis_runs.Asked, stored: BattleAnalysis | None) -> str:
    if asked is analysis_runs.Asked.QUEUED:
        return _("The analysis is queued; this page shows it when it is done.")
    if asked is analysis_runs.Asked.RESENT:
        return _("The analysis was still waiting to start: it has been sent again.")
    if asked is analysis_runs.Asked.LIMITED:
        return _("You have asked for %(count)d analyses in the last hour: please wait a while.") % {
            "count": analysis_runs.PER_HOUR
        }
    if asked is analysis_runs.Asked.NOT_FINISHED:
        return _("Only a finished battle can be analysed.")
    if asked is analysis_runs.Asked.NOT_ANALYSABLE:
        return _("This battle cannot be analysed: it has no moves played on the site.")
    if stored is not None and stored.status == BattleAnalysis.Status.DONE:
        return _("This battle has been analysed already: nothing changed.")
    return _("This battle's analysis is already queued: nothing changed.")


@require_POST
@login_required
def analyse(request: AuthedRequest, battle_id: int):
    """Queue the battle's analysis once (a second request changes nothing and says so,
    except that it sends again an analysis queued long ago and never started)."""
    battle = _battle_with_moves(request, battle_id)
    stored, asked = analysis_runs.request_analysis(battle, request.user, now=timezone.now())
    if asked in (analysis_runs.Asked.QUEUED, analysis_runs.Asked.RESENT):
        positions = analysis_runs.positions_of(battle)
        transaction.on_commit(partial(tasks.publish_analysis, battle.pk, positions))
        messages.success(request, _asked_message(asked, stored))
    else:
        messages.error(request, _asked_message(asked, stored))
    return redirect(f"{reverse('games:replay', args=[battle.pk])}#analysis")


@require_GET
def analysis_status(request: HtmxHttpRequest, battle_id: int):
    """The analysis part while it is queued or running (htmx looks every few seconds);
    once it is over, the whole page is reloaded (its move list shows the mistakes)."""
    permissions.access_battle_replay(request.user, battle_id)
    stored = BattleAnalysis.objects.filter(battle_id=battle_id).first()
    waiting = (BattleAnalysis.Status.QUEUED, BattleAnalysis.Status.RUNNING)
    if stored is None or stored.status not in waiting:
        return HttpResponseClientRefresh()
    return render(
        request,
        "games/_analysis.html#analysis-wait",
        {"analysis": stored, "analysis_poll_s": presenters_analysis.POLL_S, "battle_id": battle_id},
    )
