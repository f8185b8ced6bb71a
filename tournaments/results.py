"""Result workflow: entering, confirming, disputing and correcting match results.

Terminology and invariants:
- *Survivors* are ``(battle1_dwarfs, battle1_trolls, battle2_dwarfs, battle2_trolls)``;
  player A commands the dwarfs in battle 1 and the trolls in battle 2.
- Every write creates a new ``ResultVersion``; a version's numbers are never edited.
  Only its workflow ``status`` moves on (pending → confirmed / disputed / superseded).
- A pending entry becomes final only when a **different** person confirms it. Two
  different entries that disagree make the match *disputed* until a referee confirms
  one of them or enters a final correction.
- Every write compare-and-sets ``Match.lock_version``: a writer states the version it
  saw, and loses (``StaleResultError``) if someone else wrote in between. A repeat of
  the very same entry by the same person (a double-clicked submit) returns the version
  already saved instead of creating a second one.
- Final-on-authority results (organiser "final", CSV import, engine-verified online
  play) are recorded as confirmed versions like any other.

Who may call which function is decided in ``tournaments/permissions.py``; these
functions enforce only the invariants that must hold whoever calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import MAX_DWARFS, MAX_TROLLS, Match, ResultVersion

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

Survivors = tuple[int, int, int, int]
SURVIVOR_FIELDS = ("battle1_dwarfs", "battle1_trolls", "battle2_dwarfs", "battle2_trolls")


class ResultError(ValueError):
    """A result write that is refused; the message is shown to the user."""


class StaleResultError(ResultError):
    """Someone else changed the match since the caller read it."""

    def __init__(self, match: Match) -> None:
        super().__init__(
            _("This match was changed by someone else meanwhile; check the current values.")
        )
        self.match = match


def validate_survivors(survivors: Sequence[object]) -> Survivors:
    """Return the survivors as ints, or raise ResultError naming the bad field.

    >>> validate_survivors(["30", 2, 12, "8"])
    (30, 2, 12, 8)
    """
    if len(survivors) != 4:
        raise ResultError(_("Four survivor counts are needed (two per battle)."))
    values = []
    for field, raw in zip(SURVIVOR_FIELDS, survivors, strict=True):
        limit = MAX_DWARFS if field.endswith("dwarfs") else MAX_TROLLS
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise ResultError(
                _("%(field)s must be a whole number, not %(value)r.")
                % {"field": field, "value": raw}
            ) from None
        if not 0 <= value <= limit:
            raise ResultError(
                _("%(field)s must be between 0 and %(limit)d, not %(value)d.")
                % {"field": field, "limit": limit, "value": value}
            )
        values.append(value)
    return (values[0], values[1], values[2], values[3])


def _claim(match: Match, expected_lock_version: int | None) -> Match:
    """Compare-and-set the match's lock version; returns the locked, fresh match."""
    qs = Match.objects.filter(pk=match.pk)
    if expected_lock_version is not None:
        qs = qs.filter(lock_version=expected_lock_version)
    if qs.update(lock_version=F("lock_version") + 1) != 1:
        raise StaleResultError(Match.objects.get(pk=match.pk))
    # The UPDATE holds the row lock until commit, so this read is consistent.
    return Match.objects.select_related("round__tournament").get(pk=match.pk)


def _new_version(
    match: Match, survivors: Survivors, *, by, source: str, status: str, reason: str
) -> ResultVersion:
    number = (match.versions.aggregate(n=Max("number"))["n"] or 0) + 1
    now = timezone.now()
    confirmed = status == ResultVersion.Status.CONFIRMED
    return ResultVersion.objects.create(
        match=match,
        number=number,
        battle1_dwarfs=survivors[0],
        battle1_trolls=survivors[1],
        battle2_dwarfs=survivors[2],
        battle2_trolls=survivors[3],
        source=source,
        status=status,
        reason=reason,
        entered_by=by,
        confirmed_by=by if confirmed else None,
        confirmed_at=now if confirmed else None,
    )


def _make_final(match: Match, version: ResultVersion) -> None:
    match.versions.filter(
        status__in=[ResultVersion.Status.PENDING, ResultVersion.Status.DISPUTED]
    ).exclude(pk=version.pk).update(status=ResultVersion.Status.SUPERSEDED)
    if match.confirmed_version_id and match.confirmed_version_id != version.pk:
        ResultVersion.objects.filter(pk=match.confirmed_version_id).update(
            status=ResultVersion.Status.SUPERSEDED
        )
    match.confirmed_version = version
    match.result_status = Match.ResultStatus.CONFIRMED
    match.save(update_fields=["confirmed_version", "result_status"])


def _record_final(
    match: Match, survivors: Survivors, *, by, source: str, reason: str
) -> ResultVersion:
    """A confirmed version on its source's own authority, made the match's result."""
    version = _new_version(
        match,
        survivors,
        by=by,
        source=source,
        status=ResultVersion.Status.CONFIRMED,
        reason=reason,
    )
    _make_final(match, version)
    return version


def _repeat_of_last(match: Match, survivors: Survivors, by) -> ResultVersion | None:
    """The caller's own latest entry if it already says exactly this (double submit)."""
    last = match.versions.order_by("-number").first()
    if (
        last is not None
        and last.entered_by_id == getattr(by, "pk", None)
        and last.survivors == survivors
    ):
        return last
    return None


def enter_result(
    match: Match,
    *,
    survivors: Sequence[object],
    by: AbstractBaseUser,
    expected_lock_version: int | None,
    source: str = ResultVersion.Source.REFEREE,
    final: bool = False,
    reason: str = "",
) -> ResultVersion:
    """Enter the survivors of both battles.

    Without ``final`` the version awaits confirmation by a different person; if a
    different person already entered the same numbers, this entry confirms theirs;
    if they entered different numbers, the match becomes disputed.
    ``final=True`` (organisers only, checked by the caller) confirms at once.
    """
    values = validate_survivors(survivors)
    if match.is_bye:
        raise ResultError(_("A bye has no result to enter."))
    with transaction.atomic():
        try:
            match = _claim(match, expected_lock_version)
        except StaleResultError as stale:
            repeat = _repeat_of_last(stale.match, values, by)
            if repeat is not None:
                return repeat
            raise
        if final:
            return _record_final(match, values, by=by, source=source, reason=reason)
        if match.result_status == Match.ResultStatus.CONFIRMED:
            raise ResultError(
                _("This result is already confirmed; a referee can correct it with a reason.")
            )
        open_versions = list(
            match.versions.filter(
                status__in=[ResultVersion.Status.PENDING, ResultVersion.Status.DISPUTED]
            )
        )
        others = [v for v in open_versions if v.entered_by_id != by.pk]
        agreeing = [v for v in others if v.survivors == values]
        if agreeing:
            # A second, independent entry with the same numbers confirms the first.
            version = agreeing[-1]
            version.status = ResultVersion.Status.CONFIRMED
            version.confirmed_by = by
            version.confirmed_at = timezone.now()
            version.save(update_fields=["status", "confirmed_by", "confirmed_at"])
            _make_final(match, version)
            return version
        # The caller's own earlier open entry is replaced by this one.
        match.versions.filter(
            pk__in=[v.pk for v in open_versions if v.entered_by_id == by.pk]
        ).update(status=ResultVersion.Status.SUPERSEDED)
        if others:
            version = _new_version(
                match,
                values,
                by=by,
                source=source,
                status=ResultVersion.Status.DISPUTED,
                reason=reason,
            )
            match.versions.filter(pk__in=[v.pk for v in others]).update(
                status=ResultVersion.Status.DISPUTED
            )
            match.result_status = Match.ResultStatus.DISPUTED
        else:
            version = _new_version(
                match,
                values,
                by=by,
                source=source,
                status=ResultVersion.Status.PENDING,
                reason=reason,
            )
            match.result_status = Match.ResultStatus.ENTERED
        match.save(update_fields=["result_status"])
        return version


def confirm_result(
    match: Match, *, version_id: int, by: AbstractBaseUser, expected_lock_version: int | None
) -> ResultVersion:
    """Confirm a pending or disputed version; its author can never confirm it."""
    with transaction.atomic():
        try:
            match = _claim(match, expected_lock_version)
        except StaleResultError as stale:
            current = stale.match
            if current.confirmed_version_id == version_id and (
                current.confirmed_version.confirmed_by_id == by.pk
            ):
                return current.confirmed_version  # a repeated click
            raise
        try:
            version = match.versions.get(pk=version_id)
        except ResultVersion.DoesNotExist:
            raise ResultError(_("That result version does not belong to this match.")) from None
        if version.status not in (ResultVersion.Status.PENDING, ResultVersion.Status.DISPUTED):
            raise ResultError(_("Only a result awaiting confirmation can be confirmed."))
        if version.entered_by_id == by.pk:
            raise ResultError(_("A result must be confirmed by someone other than who entered it."))
        version.status = ResultVersion.Status.CONFIRMED
        version.confirmed_by = by
        version.confirmed_at = timezone.now()
        version.save(update_fields=["status", "confirmed_by", "confirmed_at"])
        _make_final(match, version)
        return version


def correct_result(
    match: Match,
    *,
    survivors: Sequence[object],
    by: AbstractBaseUser,
    reason: str,
    expected_lock_version: int | None,
) -> ResultVersion:
    """Replace a confirmed result with a new confirmed version (referees, with a reason)."""
    values = validate_survivors(survivors)
    if not reason.strip():
        raise ResultError(_("A correction needs a reason."))
    with transaction.atomic():
        try:
            match = _claim(match, expected_lock_version)
        except StaleResultError as stale:
            repeat = _repeat_of_last(stale.match, values, by)
            if repeat is not None and repeat.reason == reason.strip():
                return repeat
            raise
        version = _new_version(
            match,
            values,
            by=by,
            source=ResultVersion.Source.REFEREE,
            status=ResultVersion.Status.CONFIRMED,
            reason=reason.strip(),
        )
        _make_final(match, version)
        return version


def record_final_result(
    match: Match,
    *,
    survivors: Sequence[object],
    by: AbstractBaseUser | None,
    source: str,
    reason: str = "",
) -> ResultVersion:
    """Record a result that is final on its source's authority (import, engine, organiser)."""
    values = validate_survivors(survivors)
    if match.is_bye:
        raise ResultError(_("A bye has no result to enter."))
    with transaction.atomic():
        match = _claim(match, None)
        return _record_final(match, values, by=by, source=source, reason=reason)
