"""A result entry carrying a submission key (``results.once``): the referee's and a
player's entry on the match page and the over-the-board survivors form enter a result
through :func:`enter_keyed_result`, applied once per key; :func:`key_error` is the one
check of a key a form carries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from tournaments.models.results import ResultVersion, SubmissionKey
from tournaments.models.rounds import Match
from tournaments.results.entry import enter_result
from tournaments.results.once import KEY_PATTERN, apply_once_telling
from tournaments.rules.result import MatchResult

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def key_error(key: str) -> str | None:
    """What is wrong with a form's submission key, if anything (an empty key is a form
    from before keys, and fine)."""
    if key and not KEY_PATTERN.match(key):
        return _("This form's submission key is not valid; reload the page and try again.")
    return None


def enter_keyed_result(
    match: Match,
    *,
    key: str | None,
    survivors: Sequence[object] | MatchResult,
    by: User,
    expected_lock_version: int | None,
    source: str = ResultVersion.Source.REFEREE,
    players: tuple[int, int] | None = None,
    now: datetime,
) -> tuple[ResultVersion, bool]:
    """``results.entry.enter_result``, once per submission ``key``: the version and
    whether this call applied it (False: the key was applied before, and the version is
    that earlier submission's, ``once.apply_once_telling``). Raises ``ResultError``
    when the workflow refuses the entry."""
    return apply_once_telling(
        key,
        by=by,
        match=match,
        kind=SubmissionKey.Kind.ENTRY,
        write=lambda: enter_result(
            match,
            survivors=survivors,
            by=by,
            expected_lock_version=expected_lock_version,
            source=source,
            players=players,
            now=now,
        ),
    )
