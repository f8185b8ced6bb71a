"""Entering a result and confirming it: the two people behind every confirmed result.

An entry is pending until a **different** person confirms it, or enters the same numbers
independently; a different person's different numbers make the match disputed until a
referee confirms one of them. Its author can never confirm an entry
(``tournaments.results.writing`` holds the shared invariants).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.results.writing import (
    OPEN,
    ResultError,
    StaleResultError,
    claim_match,
    claim_unless_repeat,
    confirm_version,
    game_of,
    state_open,
    validate_survivors,
)
from tournaments.rules.result import MatchResult

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def enter_result(
    match: Match,
    *,
    survivors: Sequence[object] | MatchResult,
    by: User,
    expected_lock_version: int | None,
    source: str = ResultVersion.Source.REFEREE,
    players: tuple[int, int] | None = None,
    now: datetime,
) -> ResultVersion:
    """Enter the survivors of both battles, to be confirmed by a different person.

    If a different person already entered the same numbers, this entry confirms
    theirs; if they entered different numbers, the match becomes disputed.
    """
    values = validate_survivors(survivors, game=game_of(match))
    with transaction.atomic():
        claimed = claim_unless_repeat(match, expected_lock_version, values, by, players=players)
        if isinstance(claimed, ResultVersion):
            return claimed  # a double submit
        match = claimed
        if match.result_status == Match.ResultStatus.CONFIRMED:
            raise ResultError(
                _("This result is already confirmed; a referee can correct it with a reason.")
            )
        return state_open(
            match, values, by=by, source=source, kind=ResultVersion.Kind.ENTRY, reason="", now=now
        )


def confirm_result(
    match: Match,
    *,
    version_id: int,
    by: User,
    expected_lock_version: int | None,
    now: datetime,
) -> ResultVersion:
    """Confirm a pending or disputed version; its author can never confirm it."""
    with transaction.atomic():
        try:
            match = claim_match(match, expected_lock_version)
        except StaleResultError as stale:
            current = stale.match
            if current.confirmed_version_id == version_id:
                confirmed = current.confirmed_version
                assert confirmed is not None  # its id is set
                if confirmed.confirmed_by_id == by.pk:
                    return confirmed  # a repeated click
            raise
        try:
            version = match.versions.get(pk=version_id)
        except ResultVersion.DoesNotExist:
            raise ResultError(_("That result version does not belong to this match.")) from None
        if version.status not in OPEN:
            raise ResultError(_("Only a result awaiting confirmation can be confirmed."))
        if version.entered_by_id == by.pk:
            raise ResultError(_("A result must be confirmed by someone other than who entered it."))
        return confirm_version(match, version, by, now=now)
