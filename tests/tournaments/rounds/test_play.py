"""A round in play (``tournaments.rounds.play``): publishing, unpublishing, closing the
tournament.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from tests.factories import UserFactory, tournament_with_players
from tests.tournaments.rounds.played import finish
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.results.entry import enter_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import begin_play, close_tournament, publish_round, unpublish_round

pytestmark = pytest.mark.django_db


def test_publish_makes_the_round_count_and_starts_the_tournament():
    t = tournament_with_players(4)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    assert r.status == Round.Status.PUBLISHED and r.published_at is not None
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    with pytest.raises(RoundError):
        publish_round(r, now=timezone.now())


def test_unpublish_only_while_no_result_is_entered():
    t = tournament_with_players(4)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    assert unpublish_round(r).status == Round.Status.DRAFT
    publish_round(r, now=timezone.now())
    m = r.matches.first()
    enter_result(
        m, survivors=(1, 1, 1, 1), by=UserFactory(), expected_lock_version=0, now=timezone.now()
    )
    with pytest.raises(RoundError, match="pairings are frozen"):
        unpublish_round(r)
    r.refresh_from_db()
    assert r.status == Round.Status.PUBLISHED


def test_close_tournament_needs_every_result():
    t = tournament_with_players(4)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    with pytest.raises(RoundError):
        close_tournament(t, now=timezone.now())
    finish(r)
    assert close_tournament(t, now=timezone.now()).status == Tournament.Status.FINISHED
    assert set(t.round_set.values_list("status", flat=True)) == {Round.Status.FINISHED}
    with pytest.raises(RoundError, match="closed"):
        pair_next_round(t, by=None, now=timezone.now())


def test_publishing_and_the_start_of_play_are_dated_by_the_time_they_are_given():
    t = tournament_with_players(4)
    at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=at)
    assert Round.objects.get(pk=r.pk).published_at == at
    m = r.matches.filter(player_b__isnull=False).first()
    started = begin_play(m, players=(m.player_a_id, m.player_b_id), now=at + timedelta(minutes=5))
    assert started.play_started_at == at + timedelta(minutes=5)
    m.refresh_from_db()
    assert m.play_started_at == at + timedelta(minutes=5)
