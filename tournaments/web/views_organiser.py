"""Organiser pages (``/manage/``): set up a tournament, change its settings, enter
players, appoint referees and co-organisers, run rounds; and the superusers' page that
grants the organiser role.

Every view goes through a ``permissions.access_*`` gate. A POST sent by htmx gets the
updated fragment back (with its notes); the same POST without htmx gets flash messages
and a redirect.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from thud_site.http import HtmxHttpRequest
from tournaments import permissions
from tournaments.models import DEFAULT_TIEBREAKS, ForbiddenPair, Round, Tournament
from tournaments.organising import appointments, settings_changes
from tournaments.organising.creation import SlugTaken, create_tournament
from tournaments.organising.imports import (
    CsvImportError,
    enter_player,
    import_players,
    namesake_elsewhere,
    parse_players,
)
from tournaments.pairing import knockout
from tournaments.rounds import adapter, bracket, lifecycle
from tournaments.web.forms import (
    ByeForm,
    CsvUploadForm,
    PlayerForm,
    PlayoffSidesForm,
    TiebreakOrderForm,
    TournamentForm,
    TournamentSettingsForm,
    TwoEntriesForm,
    UsernameForm,
)
from tournaments.web.views_public import TIEBREAK_LABELS

Notes = list[tuple[int, str]]


def _form_errors(form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def _respond(
    request: HtmxHttpRequest, url: str, fragment: str, context: Callable[[], dict], notes: Notes
) -> HttpResponse:
    """htmx: the updated fragment with its notes; otherwise flash the notes and redirect."""
    if request.htmx:
        return render(request, fragment, {**context(), "notes": notes})
    for level, text in notes:
        messages.add_message(request, level, text)
    return redirect(url)


def settings_facts(t: Tournament) -> settings_changes.TournamentFacts:
    """What the settings guards need; read with the tournament row locked when saving."""
    rows = list(t.round_set.values_list("number", "status", "stage"))
    statuses = {number: status for number, status, _stage in rows}
    drafts = [n for n, status in statuses.items() if status == Round.Status.DRAFT]
    main = [number for number, _status, stage in rows if stage == Round.Stage.MAIN]
    return settings_changes.TournamentFacts(
        format=t.format,
        rounds=t.rounds,
        players=t.entries.count(),
        # Knockout rounds continue the numbers; the configured rounds are the main stage.
        last_round=max(main, default=0),
        knockout_started=len(main) < len(rows),
        published=sum(1 for status in statuses.values() if lifecycle.is_public(status)),
        draft_round=max(drafts, default=None),
    )


def playoff_sides_form(t: Tournament, data=None) -> PlayoffSidesForm | None:
    """The sides form when the next round is a playoff, else None."""
    if not t.has_knockout:
        return None
    loaded = bracket.load_bracket(t)
    words = t.words
    choices = []
    for tie in loaded.bracket.playoffs:
        x, y = tie.slots
        high = knockout.higher_seed(x, y, loaded.seeds)
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


def dashboard_context(t: Tournament) -> dict:
    rounds_ = list(t.round_set.order_by("number"))
    return {
        "playoff_form": playoff_sides_form(t),
        "tournament": t,
        "entries": t.entries.select_related("player").order_by("seed", "player__name"),
        "rounds": rounds_,
        "draft_round": next((r for r in rounds_ if r.status == Round.Status.DRAFT), None),
        "referees": t.referees.order_by("username"),
        "co_organisers": t.co_organisers.order_by("username"),
        "forbidden": ForbiddenPair.objects.filter(tournament=t).select_related(
            "entry_a__player", "entry_b__player"
        ),
        "next_round": adapter.next_round_number(t),
        "player_form": PlayerForm(tournament=t),
        "upload_form": CsvUploadForm(),
        "referee_form": UsernameForm(),
        "co_organiser_form": UsernameForm(auto_id="id_co_%s"),  # ids unique on the page
        "pair_form": TwoEntriesForm(tournament=t),
    }


def round_context(round_: Round) -> dict:
    return {
        "tournament": round_.tournament,
        "round": round_,
        "matches": round_.matches.select_related("player_a__player", "player_b__player"),
        "swap_form": TwoEntriesForm(tournament=round_.tournament),
        "bye_form": ByeForm(round_=round_),
    }


def _dashboard_url(t: Tournament) -> str:
    return reverse("organiser_dashboard", args=[t.slug])


def _players_fragment(request: HtmxHttpRequest, t: Tournament, notes: Notes) -> HttpResponse:
    return _respond(
        request,
        _dashboard_url(t),
        "tournaments/organiser_dashboard.html#players-table",
        lambda: dashboard_context(t),
        notes,
    )


def _round_fragment(request: HtmxHttpRequest, round_: Round, notes: Notes) -> HttpResponse:
    return _respond(
        request,
        reverse("organiser_round", args=[round_.tournament.slug, round_.number]),
        "tournaments/organiser_round.html#round-matches",
        lambda: round_context(round_),
        notes,
    )


# ---------------------------------------------------------------- tournament


@login_required
@require_http_methods(["GET", "POST"])
def new_tournament(request: HtmxHttpRequest) -> HttpResponse:
    if not permissions.can_create_tournament(request.user):
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
            return redirect(_dashboard_url(tournament))
    status = 400 if form.errors else 200
    context = {
        "form": form,
        "can_grant_organisers": permissions.can_grant_organiser_role(request.user),
    }
    return render(request, "tournaments/organiser_new.html", context, status=status)


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    context = dashboard_context(t) | {
        "warnings": settings_changes.warnings(settings_facts(t)),
        "can_manage_co_organisers": permissions.can_manage_co_organisers(request.user, t),
        "can_grant_organisers": permissions.can_grant_organiser_role(request.user),
    }
    return render(request, "tournaments/organiser_dashboard.html", context)


@login_required
@require_POST
def close(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    try:
        adapter.close_tournament(t)
        messages.success(request, _("The tournament is closed."))
    except adapter.RoundError as exc:
        messages.error(request, str(exc))
    return redirect(_dashboard_url(t))


# ---------------------------------------------------------------- settings


def _settings_url(t: Tournament) -> str:
    return reverse("organiser_settings", args=[t.slug])


def tiebreak_context(t: Tournament) -> dict:
    """The tiebreak order, each row with the whole new order its up/down button posts."""
    order = t.tiebreak_order
    rows = [
        {
            "key": key,
            "label": TIEBREAK_LABELS.get(key, key),
            "up": settings_changes.moved(order, i, -1),
            "down": settings_changes.moved(order, i, +1),
        }
        for i, key in enumerate(order)
    ]
    return {
        "tournament": t,
        "tiebreak_rows": rows,
        "default_tiebreaks": DEFAULT_TIEBREAKS,
        "is_default_order": order == DEFAULT_TIEBREAKS,
    }


@login_required
@require_http_methods(["GET", "POST"])
def tournament_settings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    with transaction.atomic():
        # The row lock orders this save after any pairing or publishing under way
        # (rounds.py locks the tournament too), so the guards see every published round.
        locked = Tournament.objects.select_for_update().get(pk=t.pk)
        facts = settings_facts(locked)
        form = TournamentSettingsForm(request.POST or None, instance=locked, facts=facts)
        if request.method == "POST" and form.is_valid():
            form.save()
            messages.success(request, _("Settings saved."))
            return redirect(_settings_url(t))
    context = tiebreak_context(t) | {
        "form": form,
        "warnings": settings_changes.warnings(facts),
        "play_started": facts.play_started,
    }
    status = 400 if form.errors else 200
    return render(request, "tournaments/organiser_settings.html", context, status=status)


@login_required
@require_POST
def tiebreak_order(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Save the whole posted order; allowed at any time (standings are recomputed)."""
    t = permissions.access_tournament_for_organiser(request.user, slug)
    form = TiebreakOrderForm(request.POST)
    if form.is_valid():
        t.tiebreaks = form.cleaned_data["order"]
        t.save(update_fields=["tiebreaks"])
        notes = [(messages.SUCCESS, _("Tiebreak order saved; the standings follow it now."))]
    else:
        notes = [(messages.ERROR, _form_errors(form))]
    return _respond(
        request,
        _settings_url(t),
        "tournaments/organiser_settings.html#tiebreak-order",
        lambda: tiebreak_context(t),
        notes,
    )


# ---------------------------------------------------------------- players


@login_required
@require_POST
def add_player(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    form = PlayerForm(request.POST, tournament=t)
    if not form.is_valid():
        return _players_fragment(request, t, [(messages.ERROR, _form_errors(form))])
    data = {k: v for k, v in form.cleaned_data.items() if v not in (None, "")}
    entry = enter_player(t, **data)
    note = _("%(name)s entered with seed %(seed)d.") % {"name": entry.player, "seed": entry.seed}
    notes = [(messages.SUCCESS, note)]
    if namesake_elsewhere(entry):
        elsewhere = _(
            "A player with this name and club already exists in another organiser's "
            "tournament; a new player was created."
        )
        notes.append((messages.INFO, elsewhere))
    return _players_fragment(request, t, notes)


@login_required
@require_POST
def upload_players(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    form = CsvUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _players_fragment(request, t, [(messages.ERROR, _form_errors(form))])
    try:
        entries = import_players(t, parse_players(form.cleaned_data["file"]))
    except CsvImportError as exc:
        return _players_fragment(request, t, [(messages.ERROR, str(exc))])
    note = _("%(n)d players imported.") % {"n": len(entries)}
    return _players_fragment(request, t, [(messages.SUCCESS, note)])


@login_required
@require_POST
def check_in(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = permissions.access_entry_for_organiser(request.user, slug, entry_id)
    entry.checked_in = not entry.checked_in
    entry.save(update_fields=["checked_in"])
    return _players_fragment(request, entry.tournament, [])


@login_required
@require_POST
def withdraw(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = permissions.access_entry_for_organiser(request.user, slug, entry_id)
    adapter.toggle_withdrawal(entry)
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
def forbid_pair(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    form = TwoEntriesForm(request.POST, tournament=t)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect(_dashboard_url(t))
    adapter.add_forbidden_pair(t, form.cleaned_data["first"], form.cleaned_data["second"])
    messages.success(request, _("These two players will not be paired."))
    return redirect(_dashboard_url(t))


# ---------------------------------------------------------------- referees


def _done(request: HtmxHttpRequest, action: Callable[..., None], *args) -> bool:
    """``action(*args)``; if it is refused, flash the reason and return False."""
    try:
        action(*args)
    except appointments.AppointmentError as exc:
        messages.error(request, str(exc))
        return False
    return True


@login_required
@require_POST
def appoint_referee(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    form = UsernameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
    elif _done(request, appointments.appoint_referee, t, form.cleaned_data["username"]):
        messages.success(request, _("Referee appointed."))
    return redirect(_dashboard_url(t))


@login_required
@require_POST
def remove_referee(request: HtmxHttpRequest, slug: str, user_id: int) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    user = get_object_or_404(get_user_model(), pk=user_id)
    if _done(request, appointments.remove_referee, t, user):
        messages.success(request, _("Referee removed."))
    return redirect(_dashboard_url(t))


# ---------------------------------------------------------------- co-organisers


@login_required
@require_POST
def appoint_co_organiser(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_owner(request.user, slug)
    form = UsernameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect(_dashboard_url(t))
    user = form.cleaned_data["username"]
    if _done(request, appointments.appoint_co_organiser, t, user):
        note = _("%(name)s is now a co-organiser.") % {"name": user.get_username()}
        messages.success(request, note)
    return redirect(_dashboard_url(t))


@login_required
@require_POST
def remove_co_organiser(request: HtmxHttpRequest, slug: str, user_id: int) -> HttpResponse:
    t = permissions.access_tournament_for_owner(request.user, slug)
    user = get_object_or_404(get_user_model(), pk=user_id)
    if _done(request, appointments.remove_co_organiser, t, user):
        messages.success(request, _("Co-organiser removed."))
    return redirect(_dashboard_url(t))


# ---------------------------------------------------------------- the organiser role


@login_required
@require_GET
def organiser_roles(request: HtmxHttpRequest) -> HttpResponse:
    permissions.access_organiser_roles(request.user)
    context = {
        "organisers": appointments.organisers_group().user_set.order_by("username"),
        "superusers": get_user_model().objects.filter(is_superuser=True).order_by("username"),
        "form": UsernameForm(),
    }
    return render(request, "tournaments/organiser_roles.html", context)


@login_required
@require_POST
def grant_organiser_role(request: HtmxHttpRequest) -> HttpResponse:
    permissions.access_organiser_roles(request.user)
    form = UsernameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_errors(form))
        return redirect("organiser_roles")
    user = form.cleaned_data["username"]
    if _done(request, appointments.grant_organiser_role, user):
        note = _("%(name)s may now create tournaments.") % {"name": user.get_username()}
        messages.success(request, note)
    return redirect("organiser_roles")


@login_required
@require_POST
def revoke_organiser_role(request: HtmxHttpRequest, user_id: int) -> HttpResponse:
    permissions.access_organiser_roles(request.user)
    user = get_object_or_404(get_user_model(), pk=user_id)
    if _done(request, appointments.revoke_organiser_role, user):
        note = _("%(name)s may no longer create tournaments.") % {"name": user.get_username()}
        messages.success(request, note)
    return redirect("organiser_roles")


# ---------------------------------------------------------------- rounds


@login_required
@require_POST
def generate_round(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = permissions.access_tournament_for_organiser(request.user, slug)
    sides = playoff_sides_form(t, request.POST)
    if sides is not None and not sides.is_valid():
        messages.error(request, _form_errors(sides))
        return redirect(_dashboard_url(t))
    second_side_first = sides.cleaned_data["second_side_first"] if sides is not None else ()
    try:
        round_ = adapter.pair_next_round(t, by=request.user, second_side_first=second_side_first)
    except adapter.RoundError as exc:
        messages.error(request, str(exc))
        return redirect(_dashboard_url(t))
    messages.success(request, _("Round %(n)d paired as a draft.") % {"n": round_.number})
    return redirect("organiser_round", t.slug, round_.number)


@login_required
@require_GET
def round_detail(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = permissions.access_round_for_organiser(request.user, slug, number)
    return render(request, "tournaments/organiser_round.html", round_context(round_))


@login_required
@require_POST
def round_swap(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = permissions.access_round_for_organiser(request.user, slug, number)
    form = TwoEntriesForm(request.POST, tournament=round_.tournament)
    if not form.is_valid():
        return _round_fragment(request, round_, [(messages.ERROR, _form_errors(form))])
    try:
        warnings = adapter.swap_players(
            round_, form.cleaned_data["first"], form.cleaned_data["second"]
        )
    except adapter.RoundError as exc:
        return _round_fragment(request, round_, [(messages.ERROR, str(exc))])
    notes = [(messages.WARNING, w) for w in warnings] or [(messages.SUCCESS, _("Swapped."))]
    return _round_fragment(request, round_, notes)


@login_required
@require_POST
def round_bye(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = permissions.access_round_for_organiser(request.user, slug, number)
    form = ByeForm(request.POST, round_=round_)
    if not form.is_valid():
        return _round_fragment(request, round_, [(messages.ERROR, _form_errors(form))])
    try:
        warnings = adapter.set_bye(round_, form.cleaned_data["entry"])
    except adapter.RoundError as exc:
        return _round_fragment(request, round_, [(messages.ERROR, str(exc))])
    notes = [(messages.WARNING, w) for w in warnings] or [(messages.SUCCESS, _("Bye set."))]
    return _round_fragment(request, round_, notes)


ROUND_ACTIONS = {
    "publish": (adapter.publish_round, _("Round published.")),
    "unpublish": (adapter.unpublish_round, _("Round back to draft.")),
}


@login_required
@require_POST
def round_action(request: HtmxHttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    round_ = permissions.access_round_for_organiser(request.user, slug, number)
    if action == "discard":
        try:
            adapter.discard_draft(round_)
            messages.success(request, _("Draft discarded."))
        except adapter.RoundError as exc:
            messages.error(request, str(exc))
        return redirect(_dashboard_url(round_.tournament))
    function, done = ROUND_ACTIONS[action]
    try:
        function(round_)
        messages.success(request, str(done))
    except adapter.RoundError as exc:
        messages.error(request, str(exc))
    return redirect("organiser_round", slug, number)


@login_required
@require_GET
def round_print(request: HtmxHttpRequest, slug: str, number: int, kind: str) -> HttpResponse:
    round_ = permissions.access_round_for_organiser(request.user, slug, number)
    template = {"pairings": "organiser_print.html", "slips": "organiser_slips.html"}[kind]
    return render(request, f"tournaments/{template}", round_context(round_))
