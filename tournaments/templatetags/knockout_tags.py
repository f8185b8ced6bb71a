"""``{% knockout_summary tournament %}``: the bracket link and, once the final is decided,
the champion, for the tournament page (whose view belongs to ``views_public``)."""

from __future__ import annotations

from django import template

from tournaments.models.tournament import Tournament
from tournaments.rounds.bracket import load_bracket

register = template.Library()


@register.inclusion_tag("tournaments/_knockout_summary.html")
def knockout_summary(tournament: Tournament) -> dict:
    if not tournament.has_knockout:
        return {"tournament": tournament, "show": False}
    loaded = load_bracket(tournament)
    champion = loaded.bracket.champion
    return {
        "tournament": tournament,
        "show": True,
        "started": loaded.bracket.started,
        "champion": loaded.entries[champion] if champion is not None else None,
    }
