"""Navigation facts every page needs: which role links to show.

The facts are lazy: an htmx fragment (a result panel, a standings refresh) never shows the
navigation, so it never pays for it. A full page asks once, in one query that also counts
the casual games waiting for the user's move (plus the pending claims count for
organisers).
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db.models import Exists, Func, Subquery
from django.utils.functional import SimpleLazyObject

from play.queries import casual_battles_of, your_move
from tournaments import dashboards, permissions
from tournaments.models import Player


def _facts(user) -> dict:
    if not user.is_authenticated:
        return {"has_player": False, "organises": False, "claims": 0, "your_move": 0}
    waiting = casual_battles_of(user).filter(your_move(user)).order_by()
    row = (
        get_user_model()
        .objects.filter(pk=user.pk)
        .values(
            has_player=Exists(Player.objects.filter(user_id=user.pk)),
            organises=Exists(permissions.tournaments_organised_by(user)),
            your_move=Subquery(waiting.annotate(n=Func("pk", function="COUNT")).values("n")),
        )
        .first()
    ) or {"has_player": False, "organises": False, "your_move": 0}
    claims = dashboards.pending_claims_count(user) if row["organises"] else 0
    return {**row, "claims": claims}


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
