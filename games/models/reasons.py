"""Why a battle paused or ended, in words: the reasons a clock stores, and the games' own.

The clock's reasons are ``games.rules.clock``'s (``REASON_*``); a battle adds its own for
the players who never came (``games.rules.presence``), and the words a page shows for each
(``Battle.reason_display``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.rules import clock

#: Why a battle that waited for its players ended (casual: cancelled) or waits for a
#: referee (tournament): one of them claimed the other a no-show (``games.rules.presence``).
NO_SHOW = "no_show"
NO_SHOW_CLAIMED = "no_show_claimed"
#: A casual battle that waited for its players until it expired with nobody there
#: (``games.rules.presence.expires_at``): closed with no result, as a no-show is.
NEVER_STARTED = "never_started"
#: The reasons a battle ended without being played: no result, not rated, not counted.
CANCELLED_REASONS = (NO_SHOW, NEVER_STARTED)

REASONS = {
    clock.REASON_MOVE_LIMIT: _("move limit reached"),
    clock.REASON_REFEREE: _("referee"),
    clock.REASON_OUTAGE: _("server outage: the turn will be replayed"),
    clock.REASON_REFEREE_OFFLINE: _(
        "the referee's clock page is offline: the turn will be replayed"
    ),
    clock.REASON_FORFEITS: _("too many forfeited turns in a row"),
    "agreement": _("ended by agreement"),
    "no_legal_move": _("the side to move has no legal move"),
    clock.REASON_TIME: _("lost on time"),
    clock.REASON_RESIGNED: _("resigned"),
    clock.REASON_UNFINISHED: _("not finished when the tournament was archived"),
    clock.REASON_UNREADABLE: _("this battle's record cannot be read"),
    NO_SHOW: _("cancelled: a player did not join in time; nobody won or lost"),
    NO_SHOW_CLAIMED: _("a player did not join in time: a referee decides"),
    NEVER_STARTED: _("expired: nobody joined in time; nobody won or lost"),
}
