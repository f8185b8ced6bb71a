"""Result workflow: entering, confirming, disputing, correcting and deciding match results.

Terminology and invariants:
- A result is a ``Survivors`` value (``tournaments.results.value``) on the scale of the
  tournament's game; player A has the first side (the one that moves first) in battle 1 and the
  second side in battle 2. A version stores the game it was entered for.
- Every write creates a new ``ResultVersion``; a version's numbers are never edited.
  Only its workflow ``status`` moves on (pending → confirmed / disputed / superseded).
- **Two people stand behind every confirmed result** (DESIGN.md §7a). An *entry* or a
  *correction* is pending until a **different** person confirms it (or enters the same
  numbers independently). Two different open statements that disagree are *disputed*
  until a referee confirms one of them. A correction leaves the confirmed result in
  place until it is itself confirmed.
- The only version that stands alone is an organiser's *decision*: explicit, with a
  reason, and marked ``kind=decision`` in the history. Results that are final on their
  source's own authority — engine-verified online play and the organiser's CSV import —
  are recorded through ``record_final_result``.
- Results are written only in rounds whose lifecycle allows it (``lifecycle.check_results``:
  never in a draft) and only for the players who played: a caller that knows who played
  (a battle remembers its players) passes ``players`` and the write is refused if the
  match's pairing no longer names them.
- Every write locks the match's round row (so an organiser cannot unpublish the round
  under it) and compare-and-sets ``Match.lock_version``: a writer states the version it
  saw, and loses (``StaleResultError``) if someone else wrote in between. A repeat of the
  very same write by the same person (a double-clicked submit) returns the version
  already saved instead of creating a second one.

Who may call which function is decided in ``tournaments/permissions.py``; these
functions enforce only the invariants that must hold whoever calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F, Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Match, ResultVersion, Round
from tournaments.results.value import THUD, Survivors, SurvivorsError
from tournaments.rounds import lifecycle

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

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


def validate_survivors(survivors: Sequence[object] | Survivors, *, game: str = THUD) -> Survivors:
    """The result numbers as a ``Survivors`` value of ``game``, or ResultError naming
    the bad field.

    >>> validate_survivors(["30", 2, 12, "8"]).as_tuple()
    (30, 2, 12, 8)
    """
    try:
        return Survivors.parse(survivors, game=game)
    except SurvivorsError as exc:
        raise ResultError(str(exc)) from None


def game_of(match: Match) -> str:
    """The game the match's tournament plays (whose scale its result follows)."""
    return match.round.tournament.game


def round_facts(round_: Round) -> lifecycle.RoundFacts:
    """The lifecycle facts of ``round_`` that result writes need (status and number)."""
    return lifecycle.RoundFacts(number=round_.number, status=round_.status)


def _claim(
    match: Match, expected_lock_version: int | None, players: tuple[int, int] | None = None
) -> Match:
    """Lock the round, compare-and-set the match; returns the locked, fresh match.

    The round lock comes first (the order every writer uses), so that an organiser's
    unpublish, which takes the same lock, sees this write or happens before it.
    """
    round_ = Round.objects.select_for_update().get(pk=match.round_id)
    try:
        lifecycle.check_results(round_facts(round_))
    except lifecycle.LifecycleError as exc:
        raise ResultError(str(exc)) from None
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


def _new_version(
    match: Match,
    survivors: Survivors,
    *,
    by,
    source: str,
    status: str,
    kind: str = ResultVersion.Kind.ENTRY,
    reason: str = "",
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
        confirmed_at=timezone.now() if confirmed else None,
    )


def _make_final(match: Match, version: ResultVersion) -> None:
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


def _confirm(match: Match, version: ResultVersion, by) -> ResultVersion:
    version.status = ResultVersion.Status.CONFIRMED
    version.confirmed_by = by
    version.confirmed_at = timezone.now()
    version.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    _make_final(match, version)
    return version


def _repeat_of_last(
    match: Match, survivors: Survivors, by, reason: str = ""
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


def _claim_unless_repeat(
    match: Match,
    expected_lock_version: int | None,
    values: Survivors,
    by,
    *,
    reason: str = "",
    players: tuple[int, int] | None = None,
) -> tuple[Match | None, ResultVersion | None]:
    """``(locked match, None)``, or ``(None, earlier version)`` for a double submit.

    A writer who lost the compare-and-set only to their own identical earlier write (a
    double-clicked button) gets that write back instead of a conflict.
    """
    try:
        return _claim(match, expected_lock_version, players), None
    except StaleResultError as stale:
        repeat = _repeat_of_last(stale.match, values, by, reason)
        if repeat is None:
            raise
        return None, repeat


def _state_open(match: Match, values: Survivors, *, by, source: str, kind: str, reason: str):
    """A new open statement: confirm an agreeing one by someone else, else pend or dispute."""
    open_versions = list(match.versions.filter(status__in=OPEN, kind=kind))
    others = [v for v in open_versions if v.entered_by_id != by.pk]
    agreeing = [v for v in others if v.survivors == values]
    if agreeing:
        # A second, independent statement of the same numbers confirms the first.
        return _confirm(match, agreeing[-1], by)
    # The caller's own earlier open statement is replaced by this one.
    match.versions.filter(pk__in=[v.pk for v in open_versions if v.entered_by_id == by.pk]).update(
        status=ResultVersion.Status.SUPERSEDED
    )
    status = ResultVersion.Status.DISPUTED if others else ResultVersion.Status.PENDING
    version = _new_version(
        match, values, by=by, source=source, status=status, kind=kind, reason=reason
    )
    if others:
        match.versions.filter(pk__in=[v.pk for v in others]).update(
            status=ResultVersion.Status.DISPUTED
        )
    if kind == ResultVersion.Kind.ENTRY:
        match.result_status = Match.ResultStatus.DISPUTED if others else Match.ResultStatus.ENTERED
        match.save(update_fields=["result_status"])
    return version


def enter_result(
    match: Match,
    *,
    survivors: Sequence[object] | Survivors,
    by: AbstractBaseUser,
    expected_lock_version: int | None,
    source: str = ResultVersion.Source.REFEREE,
    players: tuple[int, int] | None = None,
) -> ResultVersion:
    """Enter the survivors of both battles, to be confirmed by a different person.

    If a different person already entered the same numbers, this entry confirms
    theirs; if they entered different numbers, the match becomes disputed.
    """
    values = validate_survivors(survivors, game=game_of(match))
    with transaction.atomic():
        match, repeat = _claim_unless_repeat(
            match, expected_lock_version, values, by, players=players
        )
        if repeat is not None:
            return repeat
        if match.result_status == Match.ResultStatus.CONFIRMED:
            raise ResultError(
                _("This result is already confirmed; a referee can correct it with a reason.")
            )
        return _state_open(
            match, values, by=by, source=source, kind=ResultVersion.Kind.ENTRY, reason=""
        )


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
        if version.status not in OPEN:
            raise ResultError(_("Only a result awaiting confirmation can be confirmed."))
        if version.entered_by_id == by.pk:
            raise ResultError(_("A result must be confirmed by someone other than who entered it."))
        return _confirm(match, version, by)


def correct_result(
    match: Match,
    *,
    survivors: Sequence[object] | Survivors,
    by: AbstractBaseUser,
    reason: str,
    expected_lock_version: int | None,
    source: str = ResultVersion.Source.REFEREE,
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
        match, repeat = _claim_unless_repeat(
            match, expected_lock_version, values, by, reason=reason
        )
        if repeat is not None:
            return repeat
        if match.result_status != Match.ResultStatus.CONFIRMED:
            raise ResultError(
                _("There is no confirmed result to correct yet; enter the result instead.")
            )
        if match.confirmed_version.survivors == values:
            raise ResultError(_("The correction is the same as the confirmed result."))
        return _state_open(
            match, values, by=by, source=source, kind=ResultVersion.Kind.CORRECTION, reason=reason
        )


def decide_result(
    match: Match,
    *,
    survivors: Sequence[object] | Survivors,
    by: AbstractBaseUser,
    reason: str,
    expected_lock_version: int | None,
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
        match, repeat = _claim_unless_repeat(
            match, expected_lock_version, values, by, reason=reason
        )
        if repeat is not None:
            return repeat
        version = _new_version(
            match,
            values,
            by=by,
            source=ResultVersion.Source.ORGANISER,
            status=ResultVersion.Status.CONFIRMED,
            kind=ResultVersion.Kind.DECISION,
            reason=reason,
        )
        _make_final(match, version)
        return version


def record_final_result(
    match: Match,
    *,
    survivors: Sequence[object] | Survivors,
    by: AbstractBaseUser | None,
    source: str,
    reason: str = "",
    players: tuple[int, int] | None = None,
) -> ResultVersion:
    """Record a result final on its source's authority (engine-verified play, CSV import).

    ``players`` is ``(player A's entry id, player B's entry id)`` as they were when the
    battles were played; the write is refused if the pairing changed since.
    """
    if source not in (ResultVersion.Source.ENGINE, ResultVersion.Source.IMPORT):
        raise ValueError(f"a {source} result needs a second person or a decision")
    values = validate_survivors(survivors, game=game_of(match))
    with transaction.atomic():
        match = _claim(match, None, players)
        version = _new_version(
            match,
            values,
            by=by,
            source=source,
            status=ResultVersion.Status.CONFIRMED,
            reason=reason,
        )
        _make_final(match, version)
        return version


def record_final_results(
    items: Sequence[tuple[int, Survivors]], *, source: str, by: AbstractBaseUser | None = None
) -> list[ResultVersion]:
    """``record_final_result`` for many matches at once (the organiser's CSV import).

    ``items`` are ``(match id, result)`` pairs, each match at most once. The same
    invariants with a constant number of queries: the rounds are locked and checked, the
    matches locked in id order, every open or confirmed version of them superseded, the
    new confirmed versions created in bulk and the matches pointed at them with their
    lock versions bumped.
    """
    if source != ResultVersion.Source.IMPORT:
        raise ValueError(f"a bulk {source} result needs a second person or a decision")
    ids = [match_id for match_id, _values in items]
    if len(set(ids)) != len(ids):
        raise ValueError("each match at most once")
    with transaction.atomic():
        games = {}
        for round_ in (
            Round.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .filter(pk__in=Match.objects.filter(pk__in=ids).values("round_id"))
            .order_by("pk")
        ):
            try:
                lifecycle.check_results(round_facts(round_))
            except lifecycle.LifecycleError as exc:
                raise ResultError(str(exc)) from None
            games[round_.pk] = round_.tournament.game
        locked = dict.fromkeys(ids)
        for match_id, round_id, player_b_id in (
            Match.objects.select_for_update()
            .filter(pk__in=ids)
            .order_by("pk")
            .values_list("pk", "round_id", "player_b_id")
        ):
            if player_b_id is None:
                raise ResultError(_("A bye has no result to enter."))
            locked[match_id] = games[round_id]
        if None in locked.values():  # deleted meanwhile (its round re-paired)
            raise ResultError(
                _("This match was changed by someone else meanwhile; check the current values.")
            )
        last_numbers = dict(
            ResultVersion.objects.filter(match_id__in=ids)
            .values("match_id")
            .annotate(n=Max("number"))
            .values_list("match_id", "n")
        )
        ResultVersion.objects.filter(match_id__in=ids).filter(
            status__in=(*OPEN, ResultVersion.Status.CONFIRMED)
        ).update(status=ResultVersion.Status.SUPERSEDED)
        now = timezone.now()
        versions = ResultVersion.objects.bulk_create(
            [
                ResultVersion(
                    match_id=match_id,
                    number=last_numbers.get(match_id, 0) + 1,
                    game=locked[match_id],
                    **validate_survivors(values, game=locked[match_id]).as_dict(),
                    source=source,
                    kind=ResultVersion.Kind.ENTRY,
                    status=ResultVersion.Status.CONFIRMED,
                    entered_by=by,
                    confirmed_by=by,
                    confirmed_at=now,
                )
                for match_id, values in items
            ],
            batch_size=1000,
        )
        # One statement, not a CASE per row: each match's newest version is the one just
        # created (the match rows are locked). Its (match, number) index answers each row.
        Match.objects.filter(pk__in=ids).update(
            confirmed_version=Subquery(
                ResultVersion.objects.filter(match=OuterRef("pk"))
                .order_by("-number")
                .values("pk")[:1]
            ),
            result_status=Match.ResultStatus.CONFIRMED,
            lock_version=F("lock_version") + 1,
        )
        return versions
