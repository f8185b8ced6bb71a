"""The organiser's settings page: a tournament's settings, guarded by what has already
been played, and its tiebreak order."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from thud_site.http import AuthedRequest
from tournaments.models.rounds import Round
from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import DEFAULT_TIEBREAKS, Tournament
from tournaments.organising import settings_changes
from tournaments.permissions.tournament_gates import access_tournament_for_organiser
from tournaments.rating.bot_accounts import bots_among
from tournaments.rules import lifecycle
from tournaments.web.forms_tournament import TiebreakOrderForm, TournamentSettingsForm
from tournaments.web.organiser.responses import form_errors, respond
from tournaments.web.views_public import TIEBREAK_LABELS


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
        copy=t.is_copy,
        allow_bots=t.allow_bots,
        bots_playing=_bots_playing(t),
    )


def _bots_playing(t: Tournament) -> tuple[str, ...]:
    """The names of the bot accounts entered and not withdrawn, by seed."""
    entries = t.entries.filter(withdrawn_from_round__isnull=True, player__user__isnull=False)
    rows = list(entries.order_by("seed").values_list("player__user_id", "player__name"))
    bots = bots_among(user_id for user_id, _name in rows)
    return tuple(name for user_id, name in rows if user_id in bots)


def _settings_url(t: Tournament) -> str:
    return reverse("organiser_settings", args=[t.slug])


def tiebreak_context(t: Tournament) -> dict[str, Any]:
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
def tournament_settings(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    with transaction.atomic():
        # The row lock orders this save after any pairing or publishing under way
        # (rounds.py locks the tournament too), so the guards see every published round.
        locked = Tournament.objects.select_for_update().get(pk=t.pk)
        facts = settings_facts(locked)
        form = TournamentSettingsForm(request.POST or None, instance=locked, facts=facts)
        if request.method == "POST" and form.is_valid():
            form.save()  # leaves state_version alone (Tournament.save)
            bump_state_version(t.pk)
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
def tiebreak_order(request: AuthedRequest, slug: str) -> HttpResponse:
    """Save the whole posted order; allowed at any time (standings are recomputed)."""
    t = access_tournament_for_organiser(request.user, slug)
    form = TiebreakOrderForm(request.POST)
    if form.is_valid():
        with transaction.atomic():
            bump_state_version(t.pk)
            t.tiebreaks = form.cleaned_data["order"]
            t.save(update_fields=["tiebreaks"])
        notes = [(messages.SUCCESS, _("Tiebreak order saved; the standings follow it now."))]
    else:
        notes = [(messages.ERROR, form_errors(form))]
    return respond(
        request,
        _settings_url(t),
        "tournaments/organiser_settings.html#tiebreak-order",
        lambda: tiebreak_context(t),
        notes,
    )
