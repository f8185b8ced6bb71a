"""The home page: what each role does next, one tap away.

``/`` shows, for a logged-in user, a section per role they hold (organiser, referee,
player), then everyone's list of live, upcoming and finished tournaments. The
overviews come from ``tournaments.reports.dashboards``; the battles waiting for a referee come
from ``games`` here, in the roof (``front``), so that ``tournaments`` never imports
``games``. First of all, a logged-in user sees every battle waiting for them (casual,
against the computer, in a tournament: to join or for their move, ``battles_for``), each
with its *Join* link: the page to come back to when a notice was missed.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engines import registry
from games.models.battle import Battle
from games.web.presenters import player_names
from play import queries
from thud_site.http import HtmxHttpRequest
from tournaments.permissions.roles import can_create_tournament
from tournaments.reports import dashboards

WAITING = (Battle.Status.NEEDS_REFEREE, Battle.Status.PAUSED)


def battles_waiting_for(tournaments) -> list[Battle]:
    """Battles of these tournaments that wait for a referee (forfeits, pauses)."""
    return list(
        Battle.objects.filter(match__round__tournament__in=tournaments, status__in=WAITING)
        .select_related("match__round__tournament", "first_entry__player", "second_entry__player")
        .order_by("match__round__tournament__name", "match__table", "number")
    )


def battles_for(user) -> list[dict]:
    """Every battle waiting for ``user`` (``play.queries.waiting_for_you``, one query), each
    with its opponent, its game, where it is played and whether it waits to be joined."""
    if not user.is_authenticated:
        return []
    rows = []
    for battle in queries.waiting_for_you(user):
        if battle.is_casual:
            seat = 0 if battle.first_user_id == user.pk else 1
        else:
            first, _second = battle.tournament_entries()
            seat = 0 if first.player.user_id == user.pk else 1
        rows.append(
            {
                "battle": battle,
                "opponent": player_names(battle)[1 - seat],
                "game": _(registry.get(battle.game).name),  # noqa: INT001
                "tournament": None
                if battle.is_casual
                else battle.tournament_match().round.tournament,
                "to_join": battle.presence_state.awaiting,
            }
        )
    return rows


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    refereeing = dashboards.referee_overview(user)
    context = {
        "battles": battles_for(user),
        "organising": dashboards.organiser_overview(user),
        "refereeing": refereeing,
        "waiting": battles_waiting_for([o.tournament for o in refereeing]),
        "playing": dashboards.player_overview(user),
        "claims_count": dashboards.pending_claims_count(user),
        "can_create": can_create_tournament(user),
        **dashboards.public_tournaments(),
    }
    return render(request, "home/home.html", context)
