"""What every result write shares: its errors, the values' check, the claim on the match
(round lock and compare-and-set) and the making of versions.

Terminology and invariants:
- A result is a ``MatchResult`` value (``tournaments.rules.result``) on the scale of the
  tournament's game; player A has the first side (the one that moves first) in battle 1 and the
  second side in battle 2. A version stores the game it was entered for.
- Every write creates a new ``ResultVersion``; a version's numbers are never edited.
  Only its workflow ``status`` moves on (pending → confirmed / disputed / superseded).
- **Two people stand behind every confirmed result** (DESIGN.md §7a). An *entry* or a
  *correction* is pending until a **different** person confirms it (or enters the same
  numbers independently). Two different open statements that disagree are *disputed*
  until a referee confirms one of them (``state_open``).
- Results are written only in rounds whose lifecycle allows it (``lifecycle.check_results``:
  never in a draft) and only for the players who played: a caller that knows who played
  (a battle remembers its players) passes ``players`` and the write is refused if the
  match's pairing no longer names them.
- Every write locks the match's round row (so an organiser cannot unpublish the round
  under it) and compare-and-sets ``Match.lock_version``: a writer states the version it
  saw, and loses (``StaleResultError``) if someone else wrote in between. A repeat of the
  very same write by the same person (a double-clicked submit) returns the version
  already saved instead of creating a second one.

Who may call which function is decided in ``tournaments/permissions/``; the workflow
functions (``entry``, ``corrections``, ``final``) enforce only the invariants that must hold
whoever calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import F, Max
from django.utils.translation import gettext as _

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import bump_state_version_of_round
from tournaments.models.wording import say
from tournaments.rating.update import after_rounds_changed
from tournaments.rules import lifecycle
from tournaments.rules.result import MatchResult, MatchResultError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

OPEN = (ResultVersion.Status.PENDING, ResultVersion.Status.DISPUTED)


class ResultError(ValueError):
    """A result write that is refused; the message is shown to the user."""


class StaleResultError(ResultError):
    """Someone else changed the match since the caller read it."""

    def __init__(self, match: Match) -> None:
        super().__init__(
            _("This match was changed by someone else meanwhile; check the current values.")
        )
        self.match = match


def validate_survivors(survivors: Sequence[object] | MatchResult, *, game: str) -> MatchResult:
    """The result numbers as a ``MatchResult`` value of ``game``, or ResultError naming
    the bad field.

    >>> validate_survivors(["30", 2, 12, "8"], game="thud").as_tuple()
    (30, 2, 12, 8)
    """
    try:
        return MatchResult.parse(survivors, game=game)
    except MatchResultError as exc:
        raise ResultError(say(exc)) from None


def game_of(match: Match) -> str:
    """The game the match's tournament plays (whose scale its result follows)."""
    return match.round.tournament.game


def round_facts(round_: Round) -> lifecycle.RoundFacts:
    """The lifecycle facts of ``round_`` that result writes need (status and number)."""
    return lifecycle.RoundFacts(number=round_.number, status=round_.status)


def claim_match(
    match: Match, expected_lock_version: int | None, players: tuple[int, int] | None = None
) -> Match:
    """Lock the round, compare-and-set the match; returns the locked, fresh match.

    The round lock comes first (the order every writer uses), so that an organiser's
    unpublish, which takes the same lock, sees this write or happens before it. Before it,
    the tournament's state version is bumped (which locks the tournament row, as the round
    adapters do first): every result write changes the public pages, even a pending one
    (the pairings show a match's result status).
    """
    bump_state_version_of_round(match.round_id)
    round_ = Round.objects.select_for_update().get(pk=match.round_id)
    try:
        lifecycle.check_results(round_facts(round_))
    except lifecycle.LifecycleError as exc:
        raise ResultError(say(exc)) from None
    qs = Match.objects.filter(pk=match.pk)
    if expected_lock_version is not None:
        qs = qs.filter(lock_version=expected_lock_version)
    if qs.update(lock_version=F("lock_version") + 1) != 1:
        raise StaleResultError(Match.objects.get(pk=match.pk))
    # The UPDATE holds the row lock until commit, so this read is consistent.
    match = Match.objects.select_related("round__tournament").get(pk=match.pk)
    if match.is_bye:
        raise ResultError(_("A bye has no result to enter."))
    if players is not None and (match.player_a_id, match.player_b_id) != players:
        raise ResultError(
            _(
                "The pairing of this match changed after its battles were played; "
                "the result is not recorded for players who did not play it."
            )
        )
    return match


def new_version(
    match: Match,
    survivors: MatchResult,
    *,
    by: User | None,
    source: str,
    status: str,
    kind: str = ResultVersion.Kind.ENTRY,
    reason: str = "",
    now: datetime,
) -> ResultVersion:
    number = (match.versions.aggregate(n=Max("number"))["n"] or 0) + 1
    confirmed = status == ResultVersion.Status.CONFIRMED
    return ResultVersion.objects.create(
        match=match,
        number=number,
        game=survivors.game,
        **survivors.as_dict(),
        source=source,
        kind=kind,
        status=status,
        reason=reason,
        entered_by=by,
        confirmed_by=by if confirmed else None,
        confirmed_at=now if confirmed else None,
    )


def make_final(match: Match, version: ResultVersion, *, now: datetime) -> None:
    """Make ``version`` the match's confirmed result. In a finished round the result was
    already rated, so the ratings follow (a recompute of the game)."""
    match.versions.filter(status__in=OPEN).exclude(pk=version.pk).update(
        status=ResultVersion.Status.SUPERSEDED
    )
    if match.confirmed_version_id and match.confirmed_version_id != version.pk:
        ResultVersion.objects.filter(pk=match.confirmed_version_id).update(
            status=ResultVersion.Status.SUPERSEDED
        )
    match.confirmed_version = version
    match.result_status = Match.ResultStatus.CONFIRMED
    match.save(update_fields=["confirmed_version", "result_status"])
    round_ = Round.objects.select_related("tournament").get(pk=match.round_id)
    if round_.status == Round.Status.FINISHED:
        t = round_.tournament
        after_rounds_changed(t, now=now)


def confirm_version(
    match: Match, version: ResultVersion, by: User, *, now: datetime
) -> ResultVersion:
    version.status = ResultVersion.Status.CONFIRMED
    version.confirmed_by = by
    version.confirmed_at = now
    version.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    make_final(match, version, now=now)
    return version


def _repeat_of_last(
    match: Match, survivors: MatchResult, by: User, reason: str = ""
) -> ResultVersion | None:
    """The caller's own latest write if it already says exactly this (double submit)."""
    last = match.versions.order_by("-number").first()
    if (
        last is not None
        and last.entered_by_id == getattr(by, "pk", None)
        and last.survivors == survivors
        and last.reason == reason
    ):
        return last
    return None


def claim_unless_repeat(
    match: Match,
    expected_lock_version: int | None,
    values: MatchResult,
    by: User,
    *,
    reason: str = "",
    players: tuple[int, int] | None = None,
) -> Match | ResultVersion:
    """The locked match, or the caller's earlier version for a double submit.

    A writer who lost the compare-and-set only to their own identical earlier write (a
    double-clicked button) gets that write back instead of a conflict.
    """
    try:
        return claim_match(match, expected_lock_version, players)
    except StaleResultError as stale:
        repeat = _repeat_of_last(stale.match, values, by, reason)
        if repeat is None:
            raise
        return repeat


def state_open(
    match: Match,
    values: MatchResult,
    *,
    by: User,
    source: str,
    kind: str,
    reason: str,
    now: datetime,
) -> ResultVersion:
    """A new open statement: confirm an agreeing one by someone else, else pend or dispute."""
    open_versions = list(match.versions.filter(status__in=OPEN, kind=kind))
    others = [v for v in open_versions if v.entered_by_id != by.pk]
    agreeing = [v for v in others if v.survivors == values]
    if agreeing:
        # A second, independent statement of the same numbers confirms the first.
        return confirm_version(match, agreeing[-1], by, now=now)
    # The caller's own earlier open statement is replaced by this one.
    match.versions.filter(pk__in=[v.pk for v in open_versions if v.entered_by_id == by.pk]).update(
        status=ResultVersion.Status.SUPERSEDED
    )
    status = ResultVersion.Status.DISPUTED if others else ResultVersion.Status.PENDING
    version = new_version(
        match, values, by=by, source=source, status=status, kind=kind, reason=reason, now=now
    )
    if others:
        match.versions.filter(pk__in=[v.pk for v in others]).update(
            status=ResultVersion.Status.DISPUTED
        )
    if kind == ResultVersion.Kind.ENTRY:
        match.result_status = Match.ResultStatus.DISPUTED if others else Match.ResultStatus.ENTERED
        match.save(update_fields=["result_status"])
    return version
