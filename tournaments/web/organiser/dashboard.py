"""The tournament as its organiser sees it: creating one, its dashboard, closing it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from thud_site.http import AuthedRequest
from tournaments.models.entries import ForbiddenPair
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.organising import settings_changes
from tournaments.organising.creation import SlugTaken, create_tournament
from tournaments.organising.entries import history as entry_history
from tournaments.organising.link_emails import recipients
from tournaments.organising.personal_links import personal_url
from tournaments.pairing import elimination
from tournaments.permissions.roles import (
    can_create_tournament,
    can_grant_organiser_role,
    can_manage_co_organisers,
)
from tournaments.permissions.tournament_gates import access_tournament_for_organiser
from tournaments.rounds import bracket, hall
from tournaments.rounds.edits import next_round_number
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import close_tournament
from tournaments.rules import timer
from tournaments.web.forms_hall import AnnouncementForm, RoundTimerForm
from tournaments.web.forms_players import BotEntryForm, CsvUploadForm, PlayerForm
from tournaments.web.forms_rounds import PlayoffSidesForm, TwoEntriesForm
from tournaments.web.forms_staff import UsernameForm
from tournaments.web.forms_tournament import TournamentForm
from tournaments.web.organiser.confirmations import ask_first, close_question
from tournaments.web.organiser.tournament_settings import settings_facts


def dashboard_url(t: Tournament) -> str:
    return reverse("organiser_dashboard", args=[t.slug])


def playoff_sides_form(t: Tournament, data: QueryDict | None = None) -> PlayoffSidesForm | None:
    """The sides form when the next round is a playoff, else None."""
    if not t.has_knockout:
        return None
    loaded = bracket.load_bracket(t)
    words = t.words
    choices = []
    for tie in loaded.bracket.playoffs:
        x, y = tie.slots
        assert x is not None and y is not None  # a bye never needs a playoff
        high = elimination.higher_seed(x, y, loaded.seeds)
        low = y if high == x else x
        names = {
            "high": loaded.entries[high].player.name,
            "seed": loaded.seeds[high],
            "low": loaded.entries[low].player.name,
        }
        choices.append((high, words["playoff_choice"] % names))
    if not choices:
        return None
    return PlayoffSidesForm(data, choices=choices)


def hall_controls(t: Tournament, *, now: datetime) -> dict[str, Any]:
    """The hall screen's forms and the round timer as it stands."""
    round_ = hall.current_round(t)
    status = round_ and timer.status(round_.timer_started_at, round_.timer_minutes, now)
    return {
        "announcement_form": AnnouncementForm(initial={"announcement": t.announcement}),
        "timer_form": RoundTimerForm(initial={"minutes": (round_ and round_.timer_minutes) or 45}),
        "hall_timer": status,
        "hall_minutes_left": status and -(-status.remaining_s // 60),
    }


def dashboard_context(t: Tournament, absolute: Callable[[str], str]) -> dict[str, Any]:
    """The dashboard's data; ``absolute`` makes the personal links full URLs (the
    request's ``build_absolute_uri``)."""
    rounds_ = list(t.round_set.order_by("number"))
    entries = list(t.entries.select_related("player").order_by("seed", "player__name"))
    return {
        "playoff_form": playoff_sides_form(t),
        "tournament": t,
        "entries": entries,
        "entry_links": [(e, personal_url(e, absolute)) for e in entries],
        "rounds": rounds_,
        "draft_round": next((r for r in rounds_ if r.status == Round.Status.DRAFT), None),
        "referees": t.referees.order_by("username"),
        "co_organisers": t.co_organisers.order_by("username"),
        "forbidden": ForbiddenPair.objects.filter(tournament=t).select_related(
            "entry_a__player", "entry_b__player"
        ),
        "next_round": next_round_number(t),
        "player_form": PlayerForm(tournament=t),
        "bot_form": BotEntryForm() if t.allow_bots else None,
        "upload_form": CsvUploadForm(),
        "referee_form": UsernameForm(),
        "co_organiser_form": UsernameForm(auto_id="id_co_%s"),  # ids unique on the page
        "pair_form": TwoEntriesForm(tournament=t),
        "entry_changes": entry_history(t),
    }


@login_required
@require_http_methods(["GET", "POST"])
def new_tournament(request: AuthedRequest) -> HttpResponse:
    if not can_create_tournament(request.user):
        raise PermissionDenied
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = create_tournament(
                form.save(commit=False), owner=request.user, slug_from_name=form.slug_from_name
            )
        except SlugTaken as exc:
            form.add_error("slug", str(exc))
        else:
            messages.success(request, _("Tournament created."))
            return redirect(dashboard_url(tournament))
    status = 400 if form.errors else 200
    context = {
        "form": form,
        "can_grant_organisers": can_grant_organiser_role(request.user),
    }
    return render(request, "tournaments/organiser_new.html", context, status=status)


@login_required
@require_GET
@never_cache  # it shows the personal links (secrets): kept by no cache, no saved page
def dashboard(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    context = (
        dashboard_context(t, request.build_absolute_uri)
        | hall_controls(t, now=timezone.now())
        | {
            "link_recipients": recipients(t),
            "warnings": settings_changes.warnings(settings_facts(t)),
            "can_manage_co_organisers": can_manage_co_organisers(request.user, t),
            "can_grant_organisers": can_grant_organiser_role(request.user),
        }
    )
    return render(request, "tournaments/organiser_dashboard.html", context)


@login_required
@require_POST
def close(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    yes = _("Close the tournament")
    if (refused := ask_first(request, close_question(), yes, back=dashboard_url(t))) is not None:
        return refused
    try:
        close_tournament(t, now=timezone.now())
        messages.success(request, _("The tournament is closed."))
    except RoundError as exc:
        messages.error(request, str(exc))
    return redirect(dashboard_url(t))
