"""Casual matches on the pages: ``{% match_label battle numbers %}`` in the lists of
battles ("Rated match, battle 1 of 2"; ``numbers`` from ``play.matches.numbers_of``), and
``{% casual_match_box battle %}`` on a casual battle's page (the games app's template
asks play, which it may not import: a battle knows nothing of its match). The battle page
asks here too which of its seats bot accounts hold (``{% casual_bot_sides battle as
bot_sides %}``): games knows nothing of accounts either."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from accounts.models import UserProfile
from games.models.battle import Battle
from play import matches

register = template.Library()


@register.simple_tag
def match_label(battle: Battle, numbers: dict | None) -> str:
    found = (numbers or {}).get(battle.pk)
    if found is None:
        return ""
    number, rated, reason = found
    return matches.label(number, rated=rated, reason=reason)


@register.simple_tag
def resign_match_note(battle: Battle) -> str:
    """Said before a player resigns a battle of a casual match: it loses the match too
    (``tournaments.for_games.match_decision``); "" for a single battle."""
    if matches.of_battle(battle) is None:
        return ""
    return gettext("In a match, resigning a battle loses the match too, whatever the total score.")


@register.inclusion_tag("play/_match_box.html", takes_context=True)
def casual_match_box(context, battle: Battle) -> dict:
    match = matches.of_battle(battle)  # its users and no-show player read with it
    if match is None:
        return {"match": None}
    number = match.number_of(battle.pk)
    return {
        "match": match,
        "label": matches.label(number, rated=match.rated, reason=match.unrated_reason),
        "rated_per_period": matches.RATED_PER_PERIOD,
        "period_days": matches.RATING_PERIOD.days,
        "number": number,
        "line": matches.result_line(match),
        "request": context.get("request"),
    }


@register.simple_tag
def casual_bot_sides(battle: Battle) -> frozenset[str]:
    """The side keys of ``battle`` whose players are bot accounts (``play.bots``), in one
    query for both seats; none in a tournament battle (its seats are entries)."""
    if not battle.is_casual:
        return frozenset()
    seats = dict(zip((battle.first_user_id, battle.second_user_id), side_keys(battle), strict=True))
    bots = UserProfile.objects.filter(
        user_id__in=[pk for pk in seats if pk is not None], is_bot=True
    ).values_list("user_id", flat=True)
    return frozenset(seats[pk] for pk in bots)


def side_keys(battle: Battle) -> tuple[str, str]:
    first, second = (info.key for info in battle.rules.sides)
    return first, second
