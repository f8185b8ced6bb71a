"""Referee pages: the round overview and result entry, confirmation and correction.

The two players of a match use the same match page for their own match (the gate in
``access_match_for_result_entry`` decides the role), so a player reports
the result from their phone and the opponent, or a referee, confirms it.

Every form works without JavaScript (a POST redirects back to the match page); with
htmx the same POST answers the ``#result-panel`` fragment. A lost compare-and-set
answers 409 with the current values, so nobody overwrites a result they never saw.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from thud_site.http import AuthedRequest, HtmxHttpRequest
from tournaments.models.results import ResultVersion, SubmissionKey
from tournaments.models.rounds import Match
from tournaments.permissions.listings import matches_of_player
from tournaments.permissions.match_gates import (
    access_match_for_correction,
    access_match_for_decision,
    access_match_for_result_entry,
    access_version_for_confirm,
)
from tournaments.permissions.roles import Role, can_confirm, can_correct, can_decide
from tournaments.permissions.tournament_gates import access_round_for_referee
from tournaments.reports import dashboards
from tournaments.results.corrections import correct_result, decide_result
from tournaments.results.entry import confirm_result
from tournaments.results.fields import match_names
from tournaments.results.keyed import enter_keyed_result
from tournaments.results.once import apply_once, new_key
from tournaments.results.writing import ResultError, StaleResultError
from tournaments.rules import lifecycle
from tournaments.rules.result import MatchResult
from tournaments.web.forms_results import (
    ConfirmForm,
    CorrectionForm,
    DecisionForm,
    MatchResultForm,
    ResultForm,
    initial_from,
    preview,
)
from tournaments.web.result_notices import dispute_notice, disputed_by

MATCH_PAGE = "tournaments/referee_match.html"
# What a result write can change on the Match row (see tournaments/results/writing.py); the round and
# the entries it points at stay as loaded by the gate.
_RESULT_FIELDS = [
    f.name
    for f in Match._meta.concrete_fields
    if f.name not in ("id", "round", "player_a", "player_b")
]
SOURCE_BY_ROLE = {
    Role.ORGANISER: ResultVersion.Source.ORGANISER,
    Role.REFEREE: ResultVersion.Source.REFEREE,
    Role.PLAYER: ResultVersion.Source.PLAYER,
}


@dataclass(frozen=True)
class Attempt:
    """A submission that lost the compare-and-set to someone else's write (a queued entry
    sent when the network returned, typically): shown beside what is stored now, never
    applied on its own. ``values`` and ``key`` for an entry, ``confirming`` (a version
    number) for a confirmation."""

    values: MatchResult | None = None
    key: str = ""
    confirming: int | None = None


def numbers(values: MatchResult) -> str:
    """The four numbers, battle by battle: "30–2, 12–8"."""
    a, b, c, d = values.as_tuple()
    return f"{a}–{b}, {c}–{d}"


@login_required
@require_GET
def round_view(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    round_ = access_round_for_referee(request.user, slug, number)
    status = request.GET.get("status", "")
    matches = round_.matches.select_related("player_a__player", "player_b__player")
    if status in Match.ResultStatus.values:
        matches = matches.filter(result_status=status, player_b__isnull=False)
    else:
        status = ""
    context = {
        "tournament": round_.tournament,
        "round": round_,
        "matches": matches,
        "status": status,
        "statuses": Match.ResultStatus.choices,
    }
    template = "tournaments/referee_round.html"
    return render(request, f"{template}#round-matches" if request.htmx else template, context)


@login_required
@require_GET
def my_matches(request: AuthedRequest) -> HttpResponse:
    matches = matches_of_player(request.user)
    playing = dashboards.player_overview(request.user) or []
    context = {"matches": matches, "my_pages": [row.tournament for row in playing]}
    return render(request, "tournaments/referee_my_matches.html", context)


@login_required
@require_GET
def match_view(request: AuthedRequest, slug: str, match_id: int) -> HttpResponse:
    match, role = access_match_for_result_entry(request.user, slug, match_id)
    return _panel(request, match, role)


@login_required
@require_POST
def result_preview(request: AuthedRequest, slug: str, match_id: int) -> HttpResponse:
    match, role = access_match_for_result_entry(request.user, slug, match_id)
    form = MatchResultForm(request.POST, game=match.round.tournament.game)
    context = {"match": match, "preview": preview(form.survivors()) if form.is_valid() else None}
    return render(request, f"{MATCH_PAGE}#result-preview", context)


@login_required
@require_POST
def result_enter(request: AuthedRequest, slug: str, match_id: int) -> HttpResponse:
    match, role = access_match_for_result_entry(request.user, slug, match_id)
    form = ResultForm(request.POST, game=match.round.tournament.game, names=match_names(match))
    if not form.is_valid():
        return _panel(request, match, role, entry_form=form, status=422)
    values = form.survivors()
    try:
        stored, applied = enter_keyed_result(
            match,
            key=form.cleaned_data["key"],
            survivors=values,
            by=request.user,
            expected_lock_version=form.cleaned_data["lock_version"],
            source=SOURCE_BY_ROLE[role],
            now=timezone.now(),
        )
    except StaleResultError as stale:
        attempt = Attempt(values=values, key=form.cleaned_data["key"])
        return _panel(request, stale.match, role, conflict=True, attempt=attempt, status=409)
    except ResultError as error:
        form.add_error(None, str(error))
        return _panel(request, match, role, entry_form=form, status=422)
    if not applied:  # a replayed key: say what was stored then, not what this one carried
        notice = _(
            "This submission was already applied; nothing was changed. The numbers "
            "stored then: %(b1)s in battle 1, %(b2)s in battle 2."
        ) % {
            "b1": f"{stored.battle1_first}–{stored.battle1_second}",
            "b2": f"{stored.battle2_first}–{stored.battle2_second}",
        }
        return _done(request, match, role, notice)
    other = disputed_by(match, stored)
    if other is not None:  # a warning, not a success: say which numbers disagree
        return _done(request, match, role, dispute_notice(match, stored, other), warning=True)
    return _done(request, match, role, _("Result entered."))


@login_required
@require_POST
def result_confirm(request: AuthedRequest, slug: str, match_id: int) -> HttpResponse:
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        errors = form.non_field_errors()
        return HttpResponseBadRequest(
            errors[0] if errors else _("Which result should be confirmed?")
        )
    match, version, role = access_version_for_confirm(
        request.user, slug, match_id, form.cleaned_data["version_id"]
    )
    try:
        apply_once(
            form.cleaned_data["key"],
            by=request.user,
            match=match,
            kind=SubmissionKey.Kind.CONFIRMATION,
            write=lambda: confirm_result(
                match,
                version_id=version.pk,
                by=request.user,
                expected_lock_version=form.cleaned_data["lock_version"],
                now=timezone.now(),
            ),
        )
    except StaleResultError as stale:
        attempt = Attempt(confirming=version.number)
        return _panel(request, stale.match, role, conflict=True, attempt=attempt, status=409)
    except ResultError as error:
        return _panel(request, match, role, error=str(error), status=422)
    return _done(request, match, role, _("Result confirmed."))


@login_required
@require_POST
def result_correct(request: AuthedRequest, slug: str, match_id: int) -> HttpResponse:
    match, role = access_match_for_correction(request.user, slug, match_id)
    form = CorrectionForm(request.POST, game=match.round.tournament.game, names=match_names(match))
    if not form.is_valid():
        return _panel(request, match, role, correction_form=form, status=422)
    try:
        correct_result(
            match,
            survivors=form.survivors(),
            by=request.user,
            reason=form.cleaned_data["reason"],
            expected_lock_version=form.cleaned_data["lock_version"],
            now=timezone.now(),
        )
    except StaleResultError as stale:
        return _panel(request, stale.match, role, conflict=True, status=409)
    except ResultError as error:
        form.add_error(None, str(error))
        return _panel(request, match, role, correction_form=form, status=422)
    return _done(request, match, role, _("Correction saved; another referee must confirm it."))


@login_required
@require_POST
def result_decide(request: AuthedRequest, slug: str, match_id: int) -> HttpResponse:
    match, role = access_match_for_decision(request.user, slug, match_id)
    form = DecisionForm(request.POST, game=match.round.tournament.game, names=match_names(match))
    if not form.is_valid():
        return _panel(request, match, role, decision_form=form, status=422)
    try:
        decide_result(
            match,
            survivors=form.survivors(),
            by=request.user,
            reason=form.cleaned_data["reason"],
            expected_lock_version=form.cleaned_data["lock_version"],
            now=timezone.now(),
        )
    except StaleResultError as stale:
        return _panel(request, stale.match, role, conflict=True, status=409)
    except ResultError as error:
        form.add_error(None, str(error))
        return _panel(request, match, role, decision_form=form, status=422)
    return _done(request, match, role, _("Final decision recorded."))


def _done(
    request: HtmxHttpRequest, match: Match, role: Role, notice: str, *, warning: bool = False
) -> HttpResponse:
    """After a successful write: the fresh panel (htmx) or a redirect (plain POST).
    ``warning``: the write went through but needs attention (a dispute).

    The gate already passed in this request; only the match's own row changed (status, lock
    version, confirmed version), so that is all that is read again.
    """
    match.refresh_from_db(fields=_RESULT_FIELDS)
    slug, match_id = match.round.tournament.slug, match.pk
    if request.htmx:
        response = _panel(request, match, role, notice=notice, warning=warning)
    else:
        (messages.warning if warning else messages.success)(request, notice)
        response = redirect("referee_match", slug=slug, match_id=match_id)
    if match.result_status == Match.ResultStatus.CONFIRMED:
        trigger_client_event(response, "standings-changed")
    return response


def _panel(
    request: HtmxHttpRequest,
    match: Match,
    role: Role,
    *,
    entry_form: ResultForm | None = None,
    correction_form: CorrectionForm | None = None,
    decision_form: DecisionForm | None = None,
    conflict: bool = False,
    attempt: Attempt | None = None,
    error: str = "",
    notice: str = "",
    warning: bool = False,
    status: int = 200,
) -> HttpResponse:
    """The match page, or only its ``#result-panel`` for htmx requests."""
    versions = list(match.versions.select_related("entered_by", "confirmed_by"))
    latest = versions[-1] if versions else None
    own = [v for v in versions if v.entered_by_id == request.user.pk]
    # After a conflict show what is stored now; otherwise start from the caller's own entry.
    shown = latest if conflict else (own[-1] if own else None)
    confirmed = match.result_status == Match.ResultStatus.CONFIRMED
    # The caller's own entry is the latest and waits for someone else: show it, and offer
    # the form again only on request ("Enter different numbers", ``?change``).
    awaiting = (
        latest is not None
        and not conflict
        and latest.entered_by_id == request.user.pk
        and latest.kind == ResultVersion.Kind.ENTRY
        and latest.status in (ResultVersion.Status.PENDING, ResultVersion.Status.DISPUTED)
    )
    changing = "change" in request.GET
    # Nothing is entered in a draft round (tournaments.rules.lifecycle); its referees only look.
    writable = lifecycle.is_public(match.round.status)
    game, names = match.round.tournament.game, match_names(match)
    if (
        writable
        and entry_form is None
        and not confirmed
        and correction_form is None
        and (changing or not awaiting)
    ):
        entry_form = ResultForm(
            initial=initial_from(shown, match.lock_version), game=game, names=names
        )
    if writable and correction_form is None and confirmed and can_correct(role):
        current = match.confirmed_version
        correction_form = CorrectionForm(
            initial=initial_from(current, match.lock_version), game=game, names=names
        )
    if writable and decision_form is None and can_decide(role):
        decision_form = DecisionForm(
            initial=initial_from(latest, match.lock_version), game=game, names=names
        )
    preview_url = reverse("referee_result_preview", args=[match.round.tournament.slug, match.pk])
    for form in (entry_form, correction_form):
        if form is not None:
            form.enable_preview(preview_url)
    shown_form = entry_form or correction_form
    retry_form = None
    if attempt is not None and attempt.values is not None and writable and not confirmed:
        # "Enter it anyway": the same numbers and key against what is stored now.
        retry = initial_from(None, match.lock_version) | attempt.values.as_dict()
        retry_form = ResultForm(initial=retry | {"key": attempt.key}, game=game, auto_id=False)
    context = {
        "match": match,
        "role": role,
        "tournament": match.round.tournament,
        "entry_form": entry_form,
        "correction_form": correction_form,
        "decision_form": decision_form,
        "writable": writable,
        "preview": shown_form.preview() if shown_form is not None else None,
        "versions": [
            {
                "v": v,
                "score": preview(v.survivors),
                "can_confirm": can_confirm(request.user, role, v),
                "key": new_key(),
            }
            for v in reversed(versions)
        ],
        "can_referee": role in (Role.ORGANISER, Role.REFEREE),
        "conflict": _("This match was changed by someone else meanwhile.") if conflict else "",
        "attempt": attempt,
        "attempt_numbers": numbers(attempt.values) if attempt and attempt.values else "",
        "stored": latest,
        "stored_numbers": numbers(latest.survivors) if latest else "",
        "retry_form": retry_form,
        "error": error,
        "notice": notice,
        "warning": warning,
        "awaiting": latest if awaiting and entry_form is None else None,
        "awaiting_numbers": numbers(latest.survivors) if latest else "",
    }
    template = f"{MATCH_PAGE}#result-panel" if request.htmx else MATCH_PAGE
    return render(request, template, context, status=status)
