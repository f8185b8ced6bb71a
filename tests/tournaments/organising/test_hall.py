"""The organiser's hall screen controls (tournaments/organising/hall.py)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import make_match
from tournaments.models.rounds import Round
from tournaments.organising.hall import set_announcement, start_round_timer, stop_round_timer
from tournaments.rounds.locks import RoundError

pytestmark = pytest.mark.django_db


def test_a_timer_starts_on_the_current_round_and_stops():
    match = make_match()[0]
    t, now = match.round.tournament, timezone.now()
    assert start_round_timer(t, minutes=45, now=now) == match.round.number
    r = Round.objects.get(pk=match.round_id)
    assert (r.timer_started_at, r.timer_minutes) == (now, 45)
    stop_round_timer(t)
    r = Round.objects.get(pk=match.round_id)
    assert (r.timer_started_at, r.timer_minutes) == (None, None)


@pytest.mark.parametrize("minutes", [0, 601])
def test_a_timer_out_of_range_is_refused_and_changes_nothing(minutes):
    match = make_match()[0]
    with pytest.raises(RoundError, match="from 1 to 600 minutes"):
        start_round_timer(match.round.tournament, minutes=minutes, now=timezone.now())
    assert Round.objects.get(pk=match.round_id).timer_started_at is None


def test_no_timer_before_a_round_is_published():
    match = make_match()[0]
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.DRAFT)
    with pytest.raises(RoundError, match="Publish a round first"):
        start_round_timer(match.round.tournament, minutes=45, now=timezone.now())


def test_the_announcement_is_kept_trimmed():
    t = make_match()[0].round.tournament
    set_announcement(t, "  Lunch at one.\n")
    t.refresh_from_db()
    assert t.announcement == "Lunch at one."
