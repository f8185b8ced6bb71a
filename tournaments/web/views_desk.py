"""The check-in desk (``/referee/t/<slug>/desk/``): organisers and referees at the door,
on a phone. Search by name (a GET form that works without JavaScript; htmx filters as
one types), one tap per player to check in or undo, the counts at the top. Each button
posts the state it wants (``present=1`` or ``0``), so a double tap applies once. Every
desk device follows the others live: a check-in publishes a ``checkin`` event on the
tournament's channel (``signals.attendance_changed``) and the page refetches its list.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from thud_site.http import AuthedRequest
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising import checkin
from tournaments.permissions.roles import can_organise
from tournaments.permissions.tournament_gates import (
    access_entry_for_referee,
    access_tournament_for_referee,
)

TEMPLATE = "tournaments/desk.html"


def _context(t: Tournament, query: str) -> dict[str, Any]:
    entries = checkin.entries_with_absences(t)
    next_round = checkin.next_unpaired_round(t)
    # From round 2 on, a player may sit out the next round instead.
    skip_round = next_round if 1 < next_round <= t.rounds else None
    return {
        "tournament": t,
        "query": query,
        "rows": checkin.matching(entries, query),
        "counts": checkin.desk_counts(entries),
        "skip_round": skip_round,
        "skipping": {
            e.pk for e in entries if any(a.round_number == skip_round for a in e.absences.all())
        },
        "open": t.status != Tournament.Status.FINISHED,
    }


@login_required
@require_GET
def desk(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_referee(request.user, slug)
    context = _context(t, request.GET.get("q", "")[:100])
    context["can_organise"] = can_organise(request.user, t)
    if request.htmx and request.GET.get("list"):
        return render(request, f"{TEMPLATE}#desk-list", context)
    return render(request, TEMPLATE, context)


def _answer(request: AuthedRequest, entry: Entry, note: str | None, status: int = 200):
    """htmx: the player's row again and the counts (out of band); otherwise a redirect."""
    t = entry.tournament
    url = reverse("desk", args=[t.slug])
    query = request.POST.get("q", "")[:100]
    if not request.htmx:
        if note:
            messages.error(request, note)
        return redirect(f"{url}?{urlencode({'q': query})}" if query else url)
    context = _context(t, query)
    row = next(e for e in checkin.entries_with_absences(t) if e.pk == entry.pk)
    context |= {"e": row, "note": note, "oob": True}
    return render(request, f"{TEMPLATE}#desk-answer", context, status=status)


@login_required
@require_POST
def desk_check_in(request: AuthedRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = access_entry_for_referee(request.user, slug, entry_id)
    present = request.POST.get("present")
    if present not in ("0", "1"):
        return _answer(request, entry, _("Choose check in or undo."), status=400)
    try:
        checkin.set_checked_in(entry, present=present == "1", now=timezone.now())
    except checkin.CheckInError as exc:
        return _answer(request, entry, str(exc), status=400)
    return _answer(request, entry, None)


@login_required
@require_POST
def desk_skip(request: AuthedRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = access_entry_for_referee(request.user, slug, entry_id)
    try:
        number, absent = int(request.POST.get("round", "")), request.POST.get("absent")
    except ValueError:
        number, absent = 0, None
    if number < 1 or absent not in ("0", "1"):
        return _answer(request, entry, _("Choose a round and whether the player plays it."), 400)
    try:
        checkin.set_not_playing(entry, number, absent=absent == "1", now=timezone.now())
    except checkin.CheckInError as exc:
        return _answer(request, entry, str(exc), status=400)
    return _answer(request, entry, None)
