"""Correcting a confirmed result, and the organiser's final decision.

A correction needs a reason and leaves the confirmed result in place until a different
referee or the organiser confirms it. The only version that stands alone is an
organiser's *decision*: explicit, with a reason, and marked ``kind=decision`` in the
history.
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
    ResultError,
    claim_unless_repeat,
    game_of,
    make_final,
    new_version,
    state_open,
    validate_survivors,
)
from tournaments.rules.result import MatchResult

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def correct_result(
    match: Match,
    *,
    survivors: Sequence[object] | MatchResult,
    by: User,
    reason: str,
    expected_lock_version: int | None,
    source: str = ResultVersion.Source.REFEREE,
    now: datetime,
) -> ResultVersion:
    """Propose a correction of a confirmed result (referees, with a reason).

    The correction is pending: the confirmed result stays in the standings until a
    different referee or the organiser confirms the correction.
    """
    values = validate_survivors(survivors, game=game_of(match))
    reason = reason.strip()
    if not reason:
        raise ResultError(_("A correction needs a reason."))
    with transaction.atomic():
        claimed = claim_unless_repeat(match, expected_lock_version, values, by, reason=reason)
        if isinstance(claimed, ResultVersion):
            return claimed  # a double submit
        match = claimed
        if match.result_status != Match.ResultStatus.CONFIRMED:
            raise ResultError(
                _("There is no confirmed result to correct yet; enter the result instead.")
            )
        confirmed = match.confirmed_version
        assert confirmed is not None  # a confirmed match points at its version
        if confirmed.survivors == values:
            raise ResultError(_("The correction is the same as the confirmed result."))
        return state_open(
            match,
            values,
            by=by,
            source=source,
            kind=ResultVersion.Kind.CORRECTION,
            reason=reason,
            now=now,
        )


def decide_result(
    match: Match,
    *,
    survivors: Sequence[object] | MatchResult,
    by: User,
    reason: str,
    expected_lock_version: int | None,
    now: datetime,
) -> ResultVersion:
    """An organiser's final decision: confirmed at once, alone, and marked so.

    The only result that needs no second person; it needs a reason instead, shown in
    the history. Callers check that ``by`` organises the tournament.
    """
    values = validate_survivors(survivors, game=game_of(match))
    reason = reason.strip()
    if not reason:
        raise ResultError(_("A final decision needs a reason."))
    with transaction.atomic():
        claimed = claim_unless_repeat(match, expected_lock_version, values, by, reason=reason)
        if isinstance(claimed, ResultVersion):
            return claimed  # a double submit
        match = claimed
        version = new_version(
            match,
            values,
            by=by,
            source=ResultVersion.Source.ORGANISER,
            status=ResultVersion.Status.CONFIRMED,
            kind=ResultVersion.Kind.DECISION,
            reason=reason,
            now=now,
        )
        make_final(match, version, now=now)
        return version
