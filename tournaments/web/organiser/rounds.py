"""The organiser's rounds: pairing the next one as a draft, editing the draft (swaps,
byes), publishing, unpublishing or discarding it, and printing pairings and slips."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from thud_site.http import AuthedRequest
from tournaments.models.rounds import Round
from tournaments.permissions.tournament_gates import (
    access_round_for_organiser,
    access_tournament_for_organiser,
)
from tournaments.rounds.draw import discard_draft, pair_next_round, round_one_rule
from tournaments.rounds.edits import set_bye, swap_players
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import publish_round, unpublish_round
from tournaments.web.forms_rounds import ByeForm, TwoEntriesForm
from tournaments.web.organiser.confirmations import ask_first, discard_question
from tournaments.web.organiser.dashboard import dashboard_url, playoff_sides_form
from tournaments.web.organiser.responses import Notes, form_errors, respond


def round_context(round_: Round) -> dict[str, Any]:
    draft = round_.status == Round.Status.DRAFT
    return {
        "tournament": round_.tournament,
        "round": round_,
        "matches": round_.matches.select_related("player_a__player", "player_b__player"),
        "round_one": round_one_rule(round_),
        "swap_form": TwoEntriesForm(tournament=round_.tournament) if draft else None,
        "bye_form": ByeForm(round_=round_) if draft else None,
    }


def _round_fragment(request: AuthedRequest, round_: Round, notes: Notes) -> HttpResponse:
    return respond(
        request,
        reverse("organiser_round", args=[round_.tournament.slug, round_.number]),
        "tournaments/organiser_round.html#round-matches",
        lambda: round_context(round_),
        notes,
    )


@login_required
@require_POST
def generate_round(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    sides = playoff_sides_form(t, request.POST)
    if sides is not None and not sides.is_valid():
        messages.error(request, form_errors(sides))
        return redirect(dashboard_url(t))
    second_side_first = sides.cleaned_data["second_side_first"] if sides is not None else ()
    try:
        round_ = pair_next_round(
            t, by=request.user, now=timezone.now(), second_side_first=second_side_first
        )
    except RoundError as exc:
        messages.error(request, str(exc))
        return redirect(dashboard_url(t))
    messages.success(request, _("Round %(n)d paired as a draft.") % {"n": round_.number})
    return redirect("organiser_round", t.slug, round_.number)


@login_required
@require_GET
def round_detail(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    round_ = access_round_for_organiser(request.user, slug, number)
    return render(request, "tournaments/organiser_round.html", round_context(round_))


@login_required
@require_POST
def round_swap(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    round_ = access_round_for_organiser(request.user, slug, number)
    form = TwoEntriesForm(request.POST, tournament=round_.tournament)
    if not form.is_valid():
        return _round_fragment(request, round_, [(messages.ERROR, form_errors(form))])
    try:
        warnings = swap_players(round_, form.cleaned_data["first"], form.cleaned_data["second"])
    except RoundError as exc:
        return _round_fragment(request, round_, [(messages.ERROR, str(exc))])
    notes = [(messages.WARNING, w) for w in warnings] or [(messages.SUCCESS, _("Swapped."))]
    return _round_fragment(request, round_, notes)


@login_required
@require_POST
def round_bye(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    round_ = access_round_for_organiser(request.user, slug, number)
    form = ByeForm(request.POST, round_=round_)
    if not form.is_valid():
        return _round_fragment(request, round_, [(messages.ERROR, form_errors(form))])
    try:
        warnings = set_bye(round_, form.cleaned_data["entry"])
    except RoundError as exc:
        return _round_fragment(request, round_, [(messages.ERROR, str(exc))])
    notes = [(messages.WARNING, w) for w in warnings] or [(messages.SUCCESS, _("Bye set."))]
    return _round_fragment(request, round_, notes)


ROUND_ACTIONS = {
    "publish": _("Round published."),
    "unpublish": _("Round back to draft."),
}


@login_required
@require_POST
def round_action(request: AuthedRequest, slug: str, number: int, action: str) -> HttpResponse:
    round_ = access_round_for_organiser(request.user, slug, number)
    if action == "discard":
        back = reverse("organiser_round", args=[slug, number])
        yes = _("Discard draft")
        refused = ask_first(request, discard_question(number), yes, back=back)
        if refused is not None:
            return refused
        try:
            discard_draft(round_, now=timezone.now())
            messages.success(request, _("Draft discarded."))
        except RoundError as exc:
            messages.error(request, str(exc))
        return redirect(dashboard_url(round_.tournament))
    done = ROUND_ACTIONS[action]
    try:
        if action == "publish":
            publish_round(round_, now=timezone.now())
        else:
            unpublish_round(round_)
        messages.success(request, str(done))
    except RoundError as exc:
        messages.error(request, str(exc))
    return redirect("organiser_round", slug, number)


@login_required
@require_GET
def round_print(request: AuthedRequest, slug: str, number: int, kind: str) -> HttpResponse:
    round_ = access_round_for_organiser(request.user, slug, number)
    template = {"pairings": "organiser_print.html", "slips": "organiser_slips.html"}[kind]
    return render(request, f"tournaments/{template}", round_context(round_))
