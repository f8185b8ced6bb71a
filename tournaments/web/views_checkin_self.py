"""A player's own attendance, from the tournament page: checking in before round 1 (when
the tournament requires it) and, from round 2 on, sitting out the next round or taking it
back. Logged-in players only, for their own entry (``access_own_entry``); the rules and
their refusals are ``organising.checkin``'s."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from thud_site.http import AuthedRequest
from tournaments.organising import checkin
from tournaments.permissions.tournament_gates import access_own_entry


@login_required
@require_POST
def check_in_self(request: AuthedRequest, slug: str) -> HttpResponse:
    entry = access_own_entry(request.user, slug)
    try:
        checkin.check_in_self(entry, now=timezone.now())
    except checkin.CheckInError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You are checked in."))
    return redirect("tournament", slug)


@login_required
@require_POST
def skip_round_self(request: AuthedRequest, slug: str) -> HttpResponse:
    entry = access_own_entry(request.user, slug)
    try:
        number, absent = int(request.POST.get("round", "")), request.POST.get("absent")
    except ValueError:
        number, absent = 0, None
    if number < 2 or absent not in ("0", "1"):
        messages.error(request, _("Choose a round and whether you play it."))
        return redirect("tournament", slug)
    try:
        checkin.set_not_playing(entry, number, absent=absent == "1", now=timezone.now())
    except checkin.CheckInError as exc:
        messages.error(request, str(exc))
    else:
        note = _("You will not play round %(n)d.") if absent == "1" else _("You play round %(n)d.")
        messages.success(request, note % {"n": number})
    return redirect("tournament", slug)
