"""What every page needs: the navigation's facts (which role links to show) and the app
shell's (whose offline entries the page may send, where the worker saves pages).

The facts are lazy: an htmx fragment (a result panel, a standings refresh) never shows the
navigation, so it never pays for it. A full page asks once, in one query that also counts
the casual games waiting for the user's move (plus the pending claims count for
organisers).
"""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.utils.functional import SimpleLazyObject

from games.engines import registry
from games.models.battle import Battle
from thud_site.offline import SAVED_PAGES, queue_owner
from tournaments.models.people import Player
from tournaments.models.tournament import Tournament
from tournaments.reports import dashboards


@cache
def _facts_sql() -> str:
    """The navigation's one statement, in plain SQL that PostgreSQL and SQLite both run.

    Every full page runs it, and building it with the ORM cost ~15 ms of CPU on this
    machine against ~1 ms in the database. It asks what ``Player.user``,
    ``permissions.tournaments_organised_by`` and ``play.queries.your_move_count`` ask
    (a test holds them equal).
    """
    tables = {
        "player": Player._meta.db_table,
        "tournament": Tournament._meta.db_table,
        "co": Tournament.co_organisers.through._meta.db_table,
        "battle": Battle._meta.db_table,
    }
    turn = " OR ".join(
        "(b.game = %s AND ((b.side_to_move = %s AND b.first_user_id = %s)"
        " OR (b.side_to_move = %s AND b.second_user_id = %s)))"
        for _game in registry.all_games()
    )
    return (
        "SELECT EXISTS(SELECT 1 FROM {player} WHERE user_id = %s), "
        "EXISTS(SELECT 1 FROM {tournament} t WHERE %s OR t.owner_id = %s OR EXISTS("
        "SELECT 1 FROM {co} c WHERE c.tournament_id = t.id AND c.user_id = %s)), "
        "(SELECT COUNT(*) FROM {battle} b WHERE b.match_id IS NULL AND b.status = %s"
        f" AND ({turn}))"
    ).format(**tables)


def _facts_params(user) -> list:
    params: list = [user.pk, bool(user.is_superuser), user.pk, user.pk, Battle.Status.RUNNING]
    for game in registry.all_games():
        first, second = (info.key for info in game.sides)
        params += [game.key, first, user.pk, second, user.pk]
    return params


def _facts(user) -> dict:
    if not user.is_authenticated:
        return {"has_player": False, "organises": False, "claims": 0, "your_move": 0}
    with connection.cursor() as cursor:
        cursor.execute(_facts_sql(), _facts_params(user))
        has_player, organises, your_move = cursor.fetchone()
    claims = dashboards.pending_claims_count(user) if organises else 0
    return {
        "has_player": bool(has_player),
        "organises": bool(organises),
        "claims": claims,
        "your_move": your_move,
    }


def navigation(request) -> dict:
    user = getattr(request, "user", None)
    if user is None:
        return {}
    facts = cache(lambda: _facts(user))
    return {
        "nav_has_player": SimpleLazyObject(lambda: facts()["has_player"]),
        "nav_organises": SimpleLazyObject(lambda: facts()["organises"]),
        "nav_claims": SimpleLazyObject(lambda: facts()["claims"]),
        "nav_your_move": SimpleLazyObject(lambda: facts()["your_move"]),
    }


def app_shell(request) -> dict:
    user = getattr(request, "user", None)
    if user is None:
        return {}
    return {
        "offline_owner": SimpleLazyObject(lambda: queue_owner(user)),
        "saved_pages": SAVED_PAGES,
    }
