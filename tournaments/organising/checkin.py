"""Check-in and absences: who is at the hall, and who sits out a round.

Terms (the rule itself is ``tournaments.pairing.attendance``):

- *checked in*: ``Entry.checked_in``. With ``Tournament.check_in_required``, only
  checked-in entries are paired; the others are *absent* (not withdrawn) and join the next
  round paired once checked in. The desk (organiser, referees) checks in and out at any
  time; a player checks themselves in only before round 1 is paired.
- *not playing round N*: a ``RoundAbsence``; allowed until round N is paired (a draft
  counts as paired).

Every write is idempotent (the desk posts the state it wants, so a double tap applies
once), locks the tournament row as pairing does, and after commit sends
``signals.attendance_changed`` (the desk pages of every device refresh).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.events.signals import attendance_changed
from tournaments.models.entries import RoundAbsence
from tournaments.models.rounds import Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.rounds.locks import lock_tournament


class CheckInError(ValueError):
    """A refused check-in or absence; the message is shown to the user."""


def _changed(tournament_id: int) -> None:
    transaction.on_commit(
        lambda: attendance_changed.send(sender=Tournament, tournament_id=tournament_id)
    )


def _locked_entry(entry: Entry) -> tuple[Tournament, Entry]:
    tournament = lock_tournament(entry.tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise CheckInError(_("The tournament is closed."))
    return tournament, Entry.objects.select_related("player").get(pk=entry.pk)


def round_is_paired(tournament: Tournament, number: int) -> bool:
    """Whether round ``number`` exists, as a draft or published."""
    return Round.objects.filter(tournament=tournament, number=number).exists()


def set_checked_in(entry: Entry, *, present: bool, now: datetime) -> bool:
    """Check ``entry`` in (``present``) or out; True if that changed anything."""
    with transaction.atomic():
        _tournament, locked = _locked_entry(entry)
        if locked.checked_in == present:
            return False
        locked.checked_in = present
        locked.checked_in_at = now if present else None
        locked.save(update_fields=["checked_in", "checked_in_at"])
        entry.checked_in, entry.checked_in_at = locked.checked_in, locked.checked_in_at
        _changed(locked.tournament_id)
        return True


def check_in_self(entry: Entry, *, now: datetime) -> bool:
    """A player checking themselves in: only while check-in is open (before round 1)."""
    if not entry.tournament.check_in_required:
        raise CheckInError(_("This tournament does not need check-in."))
    if round_is_paired(entry.tournament, 1):
        raise CheckInError(
            _("Round 1 is already paired; please check in at the desk of the organisers.")
        )
    return set_checked_in(entry, present=True, now=now)


def can_check_in_self(entry: Entry) -> bool:
    """Whether the player's own *Check in* button is offered (``check_in_self``)."""
    t = entry.tournament
    return (
        t.check_in_required
        and not entry.checked_in
        and t.status != Tournament.Status.FINISHED
        and not round_is_paired(t, 1)
    )


def next_unpaired_round(tournament: Tournament) -> int:
    """The first round not paired yet (drafts count as paired)."""
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    return last.number + 1 if last else 1


def set_not_playing(entry: Entry, round_number: int, *, absent: bool, now: datetime) -> bool:
    """Mark ``entry`` not playing round ``round_number`` (``absent``) or playing it again;
    refused once that round is paired. True if that changed anything."""
    with transaction.atomic():
        tournament, locked = _locked_entry(entry)
        # Knockout and playoff rounds continue the numbers past ``rounds``.
        beyond = round_number > tournament.rounds and not tournament.has_knockout
        if round_number < 1 or beyond:
            raise CheckInError(_("There is no round %(n)d.") % {"n": round_number})
        if round_is_paired(tournament, round_number):
            raise CheckInError(
                _("Round %(n)d is already paired; a player can no longer skip it.")
                % {"n": round_number}
            )
        if absent:
            _absence, created = RoundAbsence.objects.get_or_create(
                entry=locked, round_number=round_number, defaults={"created_at": now}
            )
            changed = created
        else:
            deleted, _rows = RoundAbsence.objects.filter(
                entry=locked, round_number=round_number
            ).delete()
            changed = deleted > 0
        if changed:
            _changed(tournament.pk)
        return changed


def entries_with_absences(tournament: Tournament) -> list[Entry]:
    """Every entry in seed order, with its player and its absences (``absences.all()``)."""
    return list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .prefetch_related("absences")
        .order_by("seed", "player__name")
    )


@dataclass(frozen=True)
class DeskCounts:
    present: int
    absent: int
    withdrawn: int


def desk_counts(entries: Sequence[Entry]) -> DeskCounts:
    """Present (checked in), absent (not checked in) and withdrawn entries."""
    withdrawn = sum(1 for e in entries if e.withdrawn_from_round is not None)
    present = sum(1 for e in entries if e.withdrawn_from_round is None and e.checked_in)
    return DeskCounts(
        present=present, absent=len(entries) - present - withdrawn, withdrawn=withdrawn
    )


def matching(entries: Sequence[Entry], query: str) -> list[Entry]:
    """The entries whose player's name or club contains ``query`` (case ignored)."""
    q = query.strip().casefold()
    if not q:
        return list(entries)
    return [e for e in entries if q in e.player.name.casefold() or q in e.player.club.casefold()]


@dataclass(frozen=True)
class OwnAttendance:
    """What a player's own check-in box shows: their state and the buttons offered."""

    entry: Entry
    can_check_in: bool
    skip_round: int | None  # the next round they may sit out (from round 2 on), if any
    skipping: bool  # whether they sit it out


def own_attendance(entry: Entry | None) -> OwnAttendance | None:
    if entry is None:
        return None
    t = entry.tournament
    next_round = next_unpaired_round(t)
    playing = t.status != Tournament.Status.FINISHED and entry.withdrawn_from_round is None
    skip_round = next_round if playing and 1 < next_round <= t.rounds else None
    return OwnAttendance(
        entry=entry,
        can_check_in=can_check_in_self(entry),
        skip_round=skip_round,
        skipping=skip_round is not None and skips_round(entry, skip_round),
    )


def skips_round(entry: Entry, round_number: int) -> bool:
    return RoundAbsence.objects.filter(entry=entry, round_number=round_number).exists()


class UnknownNames(CheckInError):
    """Names that match no entry (or more than one); nothing was changed."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        super().__init__(*self.names)

    def __str__(self) -> str:
        return "\n".join(_("No player is named “%(name)s”.") % {"name": n} for n in self.names)


def entries_by_names(tournament: Tournament, names: Sequence[str]) -> list[Entry]:
    """The entries whose player has each name (case and outer spaces ignored); raises
    ``UnknownNames`` listing every name that matches no entry or several."""
    by_name: dict[str, list[Entry]] = {}
    for e in Entry.objects.filter(tournament=tournament).select_related("player", "tournament"):
        by_name.setdefault(e.player.name.strip().casefold(), []).append(e)
    unknown = [n for n in names if len(by_name.get(n.strip().casefold(), [])) != 1]
    if unknown:
        raise UnknownNames(unknown)
    return [by_name[n.strip().casefold()][0] for n in names]


def apply_by_names(
    tournament: Tournament,
    names: Sequence[str],
    *,
    absent: bool,
    round_number: int | None,
    now: datetime,
) -> list[Entry]:
    """``manage.py checkin``: check in (or, ``absent``, out before round 1; with
    ``round_number``, not playing that round) every named player, all or none."""
    with transaction.atomic():
        entries = entries_by_names(tournament, names)
        for entry in entries:
            if round_number is not None:
                set_not_playing(entry, round_number, absent=absent, now=now)
            elif absent and round_is_paired(tournament, 1):
                raise CheckInError(
                    _("Round 1 is already paired; use --round N to say who skips round N.")
                )
            else:
                set_checked_in(entry, present=not absent, now=now)
        return entries
