"""The tiebreaks: one table of key, label and one line of help, in the default order.

Everything that names a tiebreak reads this table: the standings (``table.compute_standings``
sorts by its keys), the settings check (``organising.settings_changes``), the tournament's
default order (``Tournament.tiebreak_order``), the pages and the PDF (labels and help).

Pure: no Django. The labels and help are English, marked for translation with
``gettext_noop`` (a local function with the name ``makemessages`` looks for); the web
translates them when it shows them.
"""

from __future__ import annotations

from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation; it is translated where it is shown."""
    return message


@dataclass(frozen=True)
class Tiebreak:
    key: str  # the stable name (tournament settings, the JSON API)
    label: str  # a column heading, English (translate when shown)
    help: str  # one line: what it counts, English (translate when shown)


TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak(
        "match_points",
        gettext_noop("Match points"),
        gettext_noop("2 for a won match, 1 for a draw, 0 for a loss (a bye counts as a win)."),
    ),
    Tiebreak(
        "differential",
        gettext_noop("Differential"),
        gettext_noop("Your points minus your opponents' points, summed over all battles."),
    ),
    Tiebreak(
        "buchholz",
        gettext_noop("Buchholz"),
        gettext_noop("The sum of your opponents' match points: who had the harder draw."),
    ),
    Tiebreak(
        "sonneborn_berger",
        gettext_noop("Sonneborn–Berger"),
        gettext_noop("Opponents' match points, counted fully for a win and half for a draw."),
    ),
    Tiebreak(
        "battles_won",
        gettext_noop("Battles won"),
        gettext_noop("Battles in which you scored more than your opponent."),
    ),
    Tiebreak(
        "seed",
        gettext_noop("Seed"),
        gettext_noop("The starting order: the last resort."),
    ),
)

#: Every tiebreak key, in the default order (a tournament that chose none ranks by this).
KEYS: tuple[str, ...] = tuple(t.key for t in TIEBREAKS)
