"""What the organiser tests post and where: the organiser's pages' URLs, a new tournament's
form, the settings form as the page posts it."""

from __future__ import annotations

from django.contrib.auth.models import Group

from tournaments.models.tournament import Tournament
from tournaments.permissions.roles import ORGANISERS_GROUP

HTMX = {"HTTP_HX_REQUEST": "true"}


NEW_TOURNAMENT = {
    "name": "Lancre Open",
    "format": "swiss",
    "rounds": 4,
    "variant": "classic",
    "capture_policy": "subset",
    "points_win": 2,
    "points_draw": 1,
    "points_loss": 0,
    "pairing_seed": 7,
}


def organiser_role(user):
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return user


def url(t: Tournament, rest: str = "") -> str:
    return f"/manage/t/{t.slug}/{rest}"


def settings_data(t: Tournament, **changes) -> dict:
    """Every field of the settings form as the page would post it, with ``changes``."""
    data = {
        "name": t.name,
        "venue": t.venue,
        "start_date": t.start_date.isoformat() if t.start_date else "",
        "end_date": t.end_date.isoformat() if t.end_date else "",
        "format": t.format,
        "rounds": t.rounds,
        "top_cut": t.top_cut,
        "knockout_draw_rule": t.knockout_draw_rule,
        "variant": t.variant,
        "capture_policy": t.capture_policy,
        "points_win": t.points_win,
        "points_draw": t.points_draw,
        "points_loss": t.points_loss,
        "think_s": t.think_ms / 1000,
        "move_s": t.move_ms / 1000,
        "grace_ms": t.grace_ms,
        "commit_rule": t.commit_rule,
        "move_unit": t.move_unit,
        "max_consecutive_forfeits": t.max_consecutive_forfeits,
        "join_window_s": t.join_window_s,
        "pairing_seed": t.pairing_seed,
        # A checkbox is posted only when ticked.
        **({"check_in_required": "on"} if t.check_in_required else {}),
        **({"rated": "on"} if t.rated else {}),
        **({"allow_bots": "on"} if t.allow_bots else {}),
    }
    return data | changes
