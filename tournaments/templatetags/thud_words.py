"""Words, not codes: template filters that say what a stored code means.

Pairing flags are stable codes in the database (``tournaments.pairing.swiss.Pairing``); people
read them as short phrases in their own language.
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

PAIRING_NOTES = {
    "bye": _("bye"),
    "rematch": _("rematch (no other pairing was possible)"),
    "float_down": _("floated down to a lower score group"),
    "float_up": _("floated up to a higher score group"),
    "side_alternated": _("colours alternated"),
    "side_coin": _("colours by coin toss"),
    "bracket": _("knockout bracket"),
    "playoff": _("playoff after a drawn knockout match"),
    "manual": _("set by hand"),
}


@register.filter
def pairing_notes(flags) -> str:
    """``["float_down", "side_coin"]`` → "floated down to a lower score group, colours by coin toss"."""
    return ", ".join(str(PAIRING_NOTES.get(flag, flag)) for flag in flags or ())
