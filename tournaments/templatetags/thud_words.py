"""Words, not codes: template filters that say what a stored code means.

Pairing flags are stable codes in the database (``tournaments.pairing.records.Pairing``); people
read them as short phrases in their own language.
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

# Said from the row of a pairing: player A is listed first. "Sides" names the game's two
# sides whatever they are (each game names its own).
PAIRING_NOTES = {
    "bye": _("bye: no opponent this round, scored as a win"),
    "rematch": _("they have met before (no other pairing was possible)"),
    "float_down": _("player A plays someone with fewer points (no one left on the same score)"),
    "float_up": _("player A plays someone with more points (no one left on the same score)"),
    "side_alternated": _("sides given so each player has both sides equally often"),
    "side_coin": _("sides decided by a coin toss"),
    "bracket": _("knockout match, from the bracket"),
    "playoff": _("replay after a drawn knockout match"),
    "manual": _("changed by hand by the organiser"),
}


@register.filter
def pairing_notes(flags) -> str:
    """``["float_down", "side_coin"]`` → "player A plays someone with fewer points (no one
    left on the same score), sides decided by a coin toss"; an unknown code is shown as it
    is."""
    return ", ".join(str(PAIRING_NOTES.get(flag, flag)) for flag in flags or ())
