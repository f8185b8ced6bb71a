"""The home page: what each role does next, one tap away.

``/`` shows, for a logged-in user, a section per role they hold (organiser, referee,
player), then everyone's list of live, upcoming and finished tournaments. The
overviews come from ``tournaments.reports.dashboards``; the battles waiting for a referee come
from ``games`` here, in the project package, so that ``tournaments`` never imports
``games``.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.models.battle import Battle
from tournaments.permissions.roles import can_create_tournament
from tournaments.reports import dashboards

from .http import HtmxHttpRequest

WAITING = (Battle.Status.NEEDS_REFEREE, Battle.Status.PAUSED)


def battles_waiting_for(tournaments) -> list[Battle]:
    """Battles of these tournaments that wait for a referee (forfeits, pauses)."""
    return list(
        Battle.objects.filter(match__round__tournament__in=tournaments, status__in=WAITING)
        .select_related("match__round__tournament", "first_entry__player", "second_entry__player")
        .order_by("match__round__tournament__name", "match__table", "number")
    )


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    refereeing = dashboards.referee_overview(user)
    context = {
        "organising": dashboards.organiser_overview(user),
        "refereeing": refereeing,
        "waiting": battles_waiting_for([o.tournament for o in refereeing]),
        "playing": dashboards.player_overview(user),
        "claims_count": dashboards.pending_claims_count(user),
        "can_create": can_create_tournament(user),
        **dashboards.public_tournaments(),
    }
    return render(request, "home/home.html", context)
