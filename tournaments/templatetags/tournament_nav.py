"""The tournament's tabs (templates/tournaments/_tournament_nav.html) list the published
rounds on every public page of the tournament, whatever the view put in its context."""

from __future__ import annotations

from django import template

from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament

register = template.Library()


@register.simple_tag
def published_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.round_set.counted().order_by("number"))
