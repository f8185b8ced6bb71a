"""The organiser's players: entering them by hand or by CSV (or a bot account by its
username, where the tournament allows bots), editing an entry (with its
history), re-seeding by rating, checking them in, withdrawing them (asked first),
revoking their personal links, and pairs never to be paired."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from thud_site.http import AuthedRequest
from tournaments.models.tournament import Tournament
from tournaments.organising.bots import BotEntryError, enter_bot
from tournaments.organising.checkin import CheckInError, set_checked_in
from tournaments.organising.csv_rows import CsvImportError, parse_players
from tournaments.organising.entries import (
    EntryEditError,
    EntryValues,
    current_values,
    edit_entry,
    reseed_by_rating,
)
from tournaments.organising.imports import enter_player, import_players, namesake_elsewhere
from tournaments.organising.personal_links import revoke_personal_link
from tournaments.permissions.tournament_gates import (
    access_entry_for_organiser,
    access_tournament_for_organiser,
)
from tournaments.rounds.edits import add_forbidden_pair, toggle_withdrawal
from tournaments.rounds.locks import RoundError
from tournaments.web.forms_players import BotEntryForm, CsvUploadForm, EntryForm, PlayerForm
from tournaments.web.forms_rounds import TwoEntriesForm
from tournaments.web.organiser.confirmations import ask_first, revoke_question, withdraw_question
from tournaments.web.organiser.dashboard import dashboard_context, dashboard_url
from tournaments.web.organiser.responses import Notes, form_errors, respond


def _players_fragment(request: AuthedRequest, t: Tournament, notes: Notes) -> HttpResponse:
    return respond(
        request,
        dashboard_url(t),
        "tournaments/organiser_dashboard.html#players-table",
        lambda: dashboard_context(t, request.build_absolute_uri),
        notes,
    )


@login_required
@require_POST
def add_player(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    form = PlayerForm(request.POST, tournament=t)
    if not form.is_valid():
        return _players_fragment(request, t, [(messages.ERROR, form_errors(form))])
    data = {k: v for k, v in form.cleaned_data.items() if v not in (None, "")}
    entered = enter_player(t, **data)
    entry = entered.entry
    note = _("%(name)s entered with seed %(seed)d.") % {"name": entry.player, "seed": entry.seed}
    notes = [(messages.SUCCESS, note)]
    if entered.rating_replaced:
        replaced = _(
            "%(name)s was entered before in your tournaments; the rating is now %(rating)d "
            "(it was %(before)s), there too."
        ) % {
            "name": entry.player,
            "rating": entry.player.rating,
            "before": "–" if entered.rating_before is None else entered.rating_before,
        }
        notes.append((messages.INFO, replaced))
    if namesake_elsewhere(entry):
        elsewhere = _(
            "A player with this name and club already exists in another organiser's "
            "tournament; a new player was created."
        )
        notes.append((messages.INFO, elsewhere))
    return _players_fragment(request, t, notes)


@login_required
@require_POST
def add_bot(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    form = BotEntryForm(request.POST)
    if not form.is_valid():
        return _players_fragment(request, t, [(messages.ERROR, form_errors(form))])
    try:
        entry = enter_bot(t, username=form.cleaned_data["username"])
    except BotEntryError as exc:
        return _players_fragment(request, t, [(messages.ERROR, str(exc))])
    note = _("%(name)s entered with seed %(seed)d.") % {"name": entry.player, "seed": entry.seed}
    return _players_fragment(request, t, [(messages.SUCCESS, note)])


@login_required
@require_POST
def upload_players(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    form = CsvUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _players_fragment(request, t, [(messages.ERROR, form_errors(form))])
    try:
        entries = import_players(t, parse_players(form.cleaned_data["file"]))
    except CsvImportError as exc:
        return _players_fragment(request, t, [(messages.ERROR, str(exc))])
    note = _("%(n)d players imported.") % {"n": len(entries)}
    return _players_fragment(request, t, [(messages.SUCCESS, note)])


@login_required
@require_http_methods(["GET", "POST"])
def edit_player(request: AuthedRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = access_entry_for_organiser(request.user, slug, entry_id)
    form = EntryForm(request.POST or None, initial=vars(current_values(entry)))
    if request.method == "POST" and form.is_valid():
        try:
            changes = edit_entry(
                entry, values=EntryValues(**form.cleaned_data), by=request.user, now=timezone.now()
            )
        except EntryEditError as exc:
            form.add_error(exc.field or None, exc.message)
        else:
            if changes:
                messages.success(request, _("The entry is changed; the change is in its history."))
            else:
                messages.info(request, _("Nothing was changed."))
            return redirect(dashboard_url(entry.tournament))
    context = {
        "tournament": entry.tournament,
        "entry": entry,
        "form": form,
        "changes": entry.changes.select_related("changed_by"),
    }
    status = 400 if form.errors else 200
    return render(request, "tournaments/organiser_entry.html", context, status=status)


@login_required
@require_POST
def reseed(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    try:
        changes = reseed_by_rating(t, by=request.user, now=timezone.now())
    except EntryEditError as exc:
        return _players_fragment(request, t, [(messages.ERROR, exc.message)])
    note = _("Seeded by rating: %(n)d seeds changed.") % {"n": len(changes)}
    return _players_fragment(request, t, [(messages.SUCCESS, note)])


@login_required
@require_POST
def check_in(request: AuthedRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = access_entry_for_organiser(request.user, slug, entry_id)
    # The button posts the state it shows next (a double tap applies once); a post
    # without it (an older page) toggles.
    wanted = request.POST.get("present")
    present = wanted == "1" if wanted in ("0", "1") else not entry.checked_in
    try:
        set_checked_in(entry, present=present, now=timezone.now())
    except CheckInError as exc:
        return _players_fragment(request, entry.tournament, [(messages.ERROR, str(exc))])
    return _players_fragment(request, entry.tournament, [])


@login_required
@require_POST
def withdraw(request: AuthedRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = access_entry_for_organiser(request.user, slug, entry_id)
    if entry.withdrawn_from_round is None:
        question = withdraw_question(entry.player.name)
        back = dashboard_url(entry.tournament)
        if (refused := ask_first(request, question, _("Withdraw"), back=back)) is not None:
            return refused
    try:
        toggle_withdrawal(entry)
    except RoundError as exc:
        return _players_fragment(request, entry.tournament, [(messages.ERROR, str(exc))])
    if entry.withdrawn_from_round:
        note = _("%(name)s is withdrawn from round %(n)d on.") % {
            "name": entry.player,
            "n": entry.withdrawn_from_round,
        }
    else:
        note = _("%(name)s is playing again.") % {"name": entry.player}
    return _players_fragment(request, entry.tournament, [(messages.SUCCESS, note)])


@login_required
@require_POST
def revoke_link(request: AuthedRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = access_entry_for_organiser(request.user, slug, entry_id)
    question = revoke_question(entry.player.name)
    back = dashboard_url(entry.tournament)
    if (refused := ask_first(request, question, _("Revoke the link"), back=back)) is not None:
        return refused
    revoke_personal_link(entry)
    note = _("%(name)s has a new personal link; the old one no longer works.") % {
        "name": entry.player
    }
    return _players_fragment(request, entry.tournament, [(messages.SUCCESS, note)])


@login_required
@require_POST
def forbid_pair(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    form = TwoEntriesForm(request.POST, tournament=t)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return redirect(dashboard_url(t))
    add_forbidden_pair(t, form.cleaned_data["first"], form.cleaned_data["second"])
    messages.success(request, _("These two players will not be paired."))
    return redirect(dashboard_url(t))
