"""The organiser's staff: a tournament's referees and co-organisers, and the superusers'
page that grants the organiser role."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from thud_site.http import AuthedRequest
from tournaments.organising import appointments
from tournaments.permissions.tournament_gates import (
    access_organiser_roles,
    access_tournament_for_organiser,
    access_tournament_for_owner,
)
from tournaments.web.forms_staff import UsernameForm
from tournaments.web.organiser.dashboard import dashboard_url
from tournaments.web.organiser.responses import form_errors


def _done(request: AuthedRequest, action: Callable[..., None], *args: Any) -> bool:
    """``action(*args)``; if it is refused, flash the reason and return False."""
    try:
        action(*args)
    except appointments.AppointmentError as exc:
        messages.error(request, str(exc))
        return False
    return True


# ---------------------------------------------------------------- referees


@login_required
@require_POST
def appoint_referee(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    form = UsernameForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
    elif _done(request, appointments.appoint_referee, t, form.cleaned_data["username"]):
        messages.success(request, _("Referee appointed."))
    return redirect(dashboard_url(t))


@login_required
@require_POST
def remove_referee(request: AuthedRequest, slug: str, user_id: int) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    user = get_object_or_404(get_user_model(), pk=user_id)
    if _done(request, appointments.remove_referee, t, user):
        messages.success(request, _("Referee removed."))
    return redirect(dashboard_url(t))


# ---------------------------------------------------------------- co-organisers


@login_required
@require_POST
def appoint_co_organiser(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_owner(request.user, slug)
    form = UsernameForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return redirect(dashboard_url(t))
    user = form.cleaned_data["username"]
    if _done(request, appointments.appoint_co_organiser, t, user):
        note = _("%(name)s is now a co-organiser.") % {"name": user.get_username()}
        messages.success(request, note)
    return redirect(dashboard_url(t))


@login_required
@require_POST
def remove_co_organiser(request: AuthedRequest, slug: str, user_id: int) -> HttpResponse:
    t = access_tournament_for_owner(request.user, slug)
    user = get_object_or_404(get_user_model(), pk=user_id)
    if _done(request, appointments.remove_co_organiser, t, user):
        messages.success(request, _("Co-organiser removed."))
    return redirect(dashboard_url(t))


# ---------------------------------------------------------------- the organiser role


@login_required
@require_GET
def organiser_roles(request: AuthedRequest) -> HttpResponse:
    access_organiser_roles(request.user)
    context = {
        "organisers": appointments.organisers_group().user_set.order_by("username"),
        "superusers": get_user_model().objects.filter(is_superuser=True).order_by("username"),
        "form": UsernameForm(),
    }
    return render(request, "tournaments/organiser_roles.html", context)


@login_required
@require_POST
def grant_organiser_role(request: AuthedRequest) -> HttpResponse:
    access_organiser_roles(request.user)
    form = UsernameForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return redirect("organiser_roles")
    user = form.cleaned_data["username"]
    if _done(request, appointments.grant_organiser_role, user):
        note = _("%(name)s may now create tournaments.") % {"name": user.get_username()}
        messages.success(request, note)
    return redirect("organiser_roles")


@login_required
@require_POST
def revoke_organiser_role(request: AuthedRequest, user_id: int) -> HttpResponse:
    access_organiser_roles(request.user)
    user = get_object_or_404(get_user_model(), pk=user_id)
    if _done(request, appointments.revoke_organiser_role, user):
        note = _("%(name)s may no longer create tournaments.") % {"name": user.get_username()}
        messages.success(request, note)
    return redirect("organiser_roles")
