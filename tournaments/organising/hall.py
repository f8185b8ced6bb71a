"""What the organiser puts on the hall screen: the announcement and the round timer
(``tournaments.rules.timer`` says what is left; this module starts and stops it)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import Tournament
from tournaments.rounds.hall import current_round
from tournaments.rounds.locks import RoundError
from tournaments.rules import timer


def set_announcement(tournament: Tournament, text: str) -> None:
    """The hall screen's announcement (empty: none)."""
    with transaction.atomic():
        bump_state_version(tournament.pk)
        tournament.announcement = text.strip()
        tournament.save(update_fields=["announcement"])


def start_round_timer(tournament: Tournament, *, minutes: int, now: datetime) -> int:
    """Start (or restart) the current round's timer at ``now``; the round's number."""
    if not 1 <= minutes <= timer.MAX_MINUTES:
        raise RoundError(
            _("A round timer runs from 1 to %(max)d minutes.") % {"max": timer.MAX_MINUTES}
        )
    round_ = current_round(tournament)
    if round_ is None:
        raise RoundError(_("Publish a round first: the timer belongs to a round."))
    with transaction.atomic():
        bump_state_version(tournament.pk)
        round_.timer_started_at, round_.timer_minutes = now, minutes
        round_.save(update_fields=["timer_started_at", "timer_minutes"])
    return round_.number


def stop_round_timer(tournament: Tournament) -> None:
    """Take the current round's timer off the screens (nothing else changes)."""
    round_ = current_round(tournament)
    if round_ is not None:
        with transaction.atomic():
            bump_state_version(tournament.pk)
            round_.timer_started_at, round_.timer_minutes = None, None
            round_.save(update_fields=["timer_started_at", "timer_minutes"])
