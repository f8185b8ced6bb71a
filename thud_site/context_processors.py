"""Navigation facts every page needs: which role links to show (two small queries)."""

from __future__ import annotations

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
    }
