"""The ratings adapter (``tournaments.rating.update``): finished rounds of rated
tournaments are rated, incrementally or by recompute, with the same numbers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory, tournament_with_players
from tests.tournaments.rating.helpers import LATER, T0, play_round, stored
from tournaments.models.ratings import RatedPeriod, RatingChange, SiteRating
from tournaments.models.rounds import Round
from tournaments.rating.update import Applied, recompute, update_ratings
from tournaments.results.corrections import correct_result, decide_result
from tournaments.results.entry import confirm_result
from tournaments.rounds.draw import discard_draft, pair_next_round
from tournaments.rounds.play import close_tournament

pytestmark = pytest.mark.django_db


def test_a_round_is_rated_when_the_next_is_paired_and_the_last_when_closed():
    t = tournament_with_players(4)
    play_round(t, 1)
    assert not RatingChange.objects.exists()  # round 1 is not finished yet
    play_round(t, 2)
    r1 = t.round_set.get(number=1)
    assert r1.finished_at == T0 + timedelta(hours=2)
    assert RatedPeriod.objects.get().key_b == 1
    assert SiteRating.objects.filter(game=t.game).count() == 4
    winner = r1.matches.first().player_a.player
    change = RatingChange.objects.get(player=winner, round=r1)
    assert change.change > 0 and change.games[0]["score"] == 1.0
    close_tournament(t, now=LATER)
    assert sorted(RatedPeriod.objects.values_list("key_b", flat=True)) == [1, 2]
    assert SiteRating.objects.get(player=winner, game=t.game).matches == 2


def test_incremental_equals_recompute_after_a_correction_in_an_early_round():
    t = tournament_with_players(6)
    r1 = play_round(t, 1)
    play_round(t, 2)
    play_round(t, 3)
    close_tournament(t, now=LATER)
    before = stored(t.game)
    # Round 1's first match is corrected (B wins instead) and confirmed by another referee.
    m = r1.matches.first()
    proposal = correct_result(
        m,
        survivors=(1, 8, 8, 1),
        by=UserFactory(),
        reason="swapped sheets",
        expected_lock_version=None,
        now=LATER,
    )
    m.refresh_from_db()
    confirm_result(
        m, version_id=proposal.pk, by=UserFactory(), expected_lock_version=None, now=LATER
    )
    after = stored(t.game)
    assert after != before  # every later period was re-rated
    loser = m.player_a.player
    assert RatingChange.objects.get(player=loser, round=r1).change < 0
    assert update_ratings(t.game, now=LATER) == Applied.NOTHING
    assert recompute(t.game, now=LATER) == Applied.RECOMPUTED
    assert stored(t.game) == after


def test_rounds_one_at_a_time_give_the_numbers_of_one_recompute():
    t = tournament_with_players(5)
    for n in (1, 2, 3):
        play_round(t, n)
    close_tournament(t, now=LATER)
    incremental = stored(t.game)
    recompute(t.game, now=LATER)
    assert stored(t.game) == incremental


def test_a_bye_and_an_organisers_decision_are_not_rated():
    t = tournament_with_players(5)
    r1 = play_round(t, 1)
    bye = r1.matches.get(player_b__isnull=True).player_a.player
    decided = r1.matches.filter(player_b__isnull=False).first()
    decide_result(
        decided,
        survivors=(10, 1, 10, 1),
        by=UserFactory(),
        reason="no-show",
        expected_lock_version=None,
        now=T0,
    )
    close_tournament(t, now=LATER)
    rated = set(RatingChange.objects.values_list("player_id", flat=True))
    assert bye.pk not in rated
    assert decided.player_a.player_id not in rated
    assert decided.player_b.player_id not in rated
    assert len(rated) == 2  # the one match played


def test_an_unrated_tournament_rates_nothing():
    t = tournament_with_players(4, rated=False)
    play_round(t, 1)
    close_tournament(t, now=LATER)
    assert not RatingChange.objects.exists() and not SiteRating.objects.exists()
    # Nor when a rated tournament of the same game updates the ratings afterwards.
    rated = tournament_with_players(4)
    play_round(rated, 1)
    close_tournament(rated, now=LATER)
    assert set(RatingChange.objects.values_list("round__tournament", flat=True)) == {rated.pk}


def test_discarding_the_next_draft_unrates_the_round_it_had_finished():
    t = tournament_with_players(4)
    play_round(t, 1)
    draft = pair_next_round(t, by=None, now=LATER)
    assert RatedPeriod.objects.count() == 1
    discard_draft(draft, now=LATER)
    assert t.round_set.get(number=1).status == Round.Status.PUBLISHED
    assert not RatedPeriod.objects.exists() and not SiteRating.objects.exists()


def _queries_to_recompute(players: int) -> int:
    t = tournament_with_players(players)
    play_round(t, 1)
    play_round(t, 2)
    close_tournament(t, now=LATER)
    with CaptureQueriesContext(connection) as queries:
        recompute(t.game, now=LATER)
    RatedPeriod.objects.all().delete()  # the next tournament starts afresh
    RatingChange.objects.all().delete()
    SiteRating.objects.all().delete()
    return len(queries)


def test_the_number_of_queries_does_not_grow_with_the_players():
    assert _queries_to_recompute(4) == _queries_to_recompute(10)
