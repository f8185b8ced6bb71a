"""What the match page says after an entry: which numbers of two disagreeing entries
differ (a dispute), named by field and player, both values side by side."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.results.fields import match_names, named_label
from tournaments.rules.scales import FIELDS


def disputed_by(match: Match, version: ResultVersion) -> ResultVersion | None:
    """The latest open entry by someone else that ``version`` disagrees with, if any."""
    if version.status != ResultVersion.Status.DISPUTED:
        return None
    return (
        match.versions.filter(status=ResultVersion.Status.DISPUTED, kind=version.kind)
        .exclude(pk=version.pk)
        .exclude(entered_by_id=version.entered_by_id)
        .order_by("number")
        .last()
    )


def dispute_notice(match: Match, mine: ResultVersion, theirs: ResultVersion) -> str:
    """ "This entry differs from version 1 … Battle 1 <the game's count> (Alice): yours 30,
    theirs 28." Only the numbers that differ are named."""
    names = match_names(match)
    game = match.round.tournament.game
    mine_values, theirs_values = mine.survivors.as_dict(), theirs.survivors.as_dict()
    differences = "; ".join(
        _("%(field)s: yours %(mine)s, theirs %(theirs)s")
        % {
            "field": named_label(game, field, names),
            "mine": mine_values[field],
            "theirs": theirs_values[field],
        }
        for field in FIELDS
        if mine_values[field] != theirs_values[field]
    )
    return _(
        "Entered, but this entry differs from version %(number)s, so the result is "
        "disputed: %(differences)s."
    ) % {"number": theirs.number, "differences": differences}
