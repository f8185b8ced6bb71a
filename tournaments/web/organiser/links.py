"""Handing out the personal links (``organising.personal_links``): the printable list of
every player's link, and e-mailing the links to the players with an address (asked first).

Both are for the tournament's organisers only (the links are secrets) and are kept by no
cache and no saved page; copying one link and revoking it live on the dashboard.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from thud_site.http import AuthedRequest
from tournaments.organising.link_emails import email_personal_links, recipients
from tournaments.permissions.tournament_gates import access_tournament_for_organiser
from tournaments.reports.player_cards import player_cards
from tournaments.web.organiser.confirmations import CONFIRM_FIELD
from tournaments.web.organiser.dashboard import dashboard_url


def _names(entries) -> str:
    return ", ".join(e.player.name for e in entries)


@login_required
@require_GET
@never_cache
def links_list(request: AuthedRequest, slug: str) -> HttpResponse:
    t = access_tournament_for_organiser(request.user, slug)
    context = {"tournament": t, "cards": player_cards(t, request.build_absolute_uri)}
    return render(request, "tournaments/organiser_links.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def email_links(request: AuthedRequest, slug: str) -> HttpResponse:
    """GET (or a POST without the yes): who will get an e-mail and who has no address;
    POST with the yes: queue them, each once however often it is posted."""
    t = access_tournament_for_organiser(request.user, slug)
    if request.method == "GET" or request.POST.get(CONFIRM_FIELD) != "1":
        context = {"tournament": t, "recipients": recipients(t), "back": dashboard_url(t)}
        status = 200 if request.method == "GET" else 400
        return render(request, "tournaments/organiser_email_links.html", context, status=status)
    sent = email_personal_links(t, absolute=request.build_absolute_uri, now=timezone.now())
    n = len(sent.queued)
    messages.success(
        request,
        ngettext(
            "%(n)d e-mail with a personal link is queued to be sent.",
            "%(n)d e-mails with personal links are queued to be sent.",
            n,
        )
        % {"n": n},
    )
    if sent.queued_before:
        messages.info(
            request,
            _("Already e-mailed this link before, not sent again: %(names)s.")
            % {"names": _names(sent.queued_before)},
        )
    if sent.without_address:
        messages.warning(
            request,
            _("Not e-mailed (no e-mail address): %(names)s.")
            % {"names": _names(sent.without_address)},
        )
    return redirect(dashboard_url(t))
