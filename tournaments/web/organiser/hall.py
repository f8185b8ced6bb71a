"""The organiser's hall screen controls (on the dashboard): the announcement and the
round timer. Refusals come back as messages on the dashboard; nothing changes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from thud_site.http import AuthedRequest
from tournaments.organising.hall import set_announcement, start_round_timer, stop_round_timer
from tournaments.permissions.tournament_gates import access_tournament_for_organiser
from tournaments.rounds.locks import RoundError
from tournaments.web.forms_hall import AnnouncementForm, RoundTimerForm
from tournaments.web.organiser.responses import form_errors


def _back(slug: str) -> HttpResponse:
    return redirect("organiser_dashboard", slug=slug)


@login_required
@require_POST
def announcement(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return _back(slug)
    set_announcement(t, form.cleaned_data["announcement"])
    messages.success(request, _("The hall screen shows the new announcement."))
    return _back(slug)


@login_required
@require_POST
def round_timer(request: AuthedRequest, slug: str, action: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    if action == "stop":
        stop_round_timer(t)
        messages.success(request, _("The round timer is stopped."))
        return _back(slug)
    if action != "start":
        return HttpResponse(status=404)
    form = RoundTimerForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return _back(slug)
    try:
        number = start_round_timer(t, minutes=form.cleaned_data["minutes"], now=timezone.now())
    except RoundError as exc:
        messages.error(request, str(exc))
        return _back(slug)
    messages.success(
        request,
        _("The timer of round %(n)d runs for %(m)d minutes.")
        % {"n": number, "m": form.cleaned_data["minutes"]},
    )
    return _back(slug)
