"""Navigation facts every page needs: which role links to show, and how many casual
games wait for the user's move (three small queries)."""

from __future__ import annotations

from play.queries import your_move_count
from tournaments import dashboards, permissions


def navigation(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    organises = permissions.tournaments_organised_by(user).exists()
    return {
        "nav_has_player": hasattr(user, "player"),
        "nav_organises": organises,
        "nav_claims": dashboards.pending_claims_count(user) if organises else 0,
        "nav_your_move": your_move_count(user),
    }
