"""Account pages beyond Django's own auth views: registration and player claims.

Login (rate-limited), logout and password change/reset are Django's views, wired in
``urls_accounts.py``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import claims
from accounts.forms import ClaimForm, RegistrationForm
from thud_site.http import AuthedRequest, HtmxHttpRequest
from tournaments.permissions.claims import access_claim_for_organiser, claims_for_organiser


@require_http_methods(["GET", "POST"])
def register(request: HtmxHttpRequest) -> HttpResponse:
    form = RegistrationForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
                # No field at all when nobody is claimable.
                if form.cleaned_data.get("player") is not None:
                    claims.make_claim(user=user, player=form.cleaned_data["player"])
        except claims.ClaimError as error:
            form.add_error("player", str(error))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome! Your account is ready."))
            return redirect("claim_player")
    return render(request, "registration/register.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def claim_player(request: AuthedRequest) -> HttpResponse:
    form = ClaimForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            claims.make_claim(
                user=request.user,
                player=form.cleaned_data["player"],
                message=form.cleaned_data["message"],
            )
        except claims.ClaimError as error:
            form.add_error("player", str(error))
        else:
            messages.success(request, _("Claim sent; an organiser will decide."))
            return redirect("claim_player")
    context = {"form": form, "claims": request.user.player_claims.select_related("player")}
    return render(request, "registration/claim_player.html", context)


@login_required
@require_http_methods(["GET"])
def pending_claims(request: AuthedRequest) -> HttpResponse:
    # What the claimant wrote and when they registered, for the organiser to decide on.
    claims_ = claims_for_organiser(request.user).select_related("note")
    context = {"claims": claims_.prefetch_related("player__entries__tournament")}
    return render(request, "registration/pending_claims.html", context)


@login_required
@require_POST
def decide_claim(request: AuthedRequest, claim_id: int, decision: str) -> HttpResponse:
    claim = access_claim_for_organiser(request.user, claim_id)
    try:
        claims.decide_claim(
            claim, approve=decision == "approve", by=request.user, now=timezone.now()
        )
    except claims.ClaimError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Claim decided."))
    return redirect("pending_claims")
