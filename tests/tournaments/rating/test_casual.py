"""Rated casual matches as periods (``tournaments.rating.sources``): the contract other apps
offer through ``AppConfig.rated_periods(game)``, called here with such tuples."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ratings.periods import RatedMatch
from tests.factories import PlayerFactory, UserFactory, tournament_with_players
from tests.tournaments.rating.helpers import LATER, T0, play_round, stored
from tournaments.contributions import register
from tournaments.models.people import Player
from tournaments.models.ratings import RatingChange
from tournaments.rating import sources
from tournaments.rating.reads import history
from tournaments.rating.sources import CASUAL, casual_periods, offered_casual
from tournaments.rating.update import Applied, recompute, update_ratings

pytestmark = pytest.mark.django_db


def test_each_user_plays_as_their_player_or_a_new_one_in_their_name():
    claimed = UserFactory()
    player = PlayerFactory(user=claimed)
    newcomer = UserFactory(first_name="Sam", last_name="Vimes")
    (s,) = casual_periods([(7, T0, claimed.pk, newcomer.pk, -3)], now=T0)
    created = Player.objects.get(user=newcomer)
    assert created.name == "Sam Vimes"
    assert s.period.key == (CASUAL, 7) and s.period.at == T0 and s.casual_match == 7
    assert s.period.matches == (RatedMatch(player.pk, created.pk, 0.0),)
    # Twice: the same Player, no second one.
    casual_periods([(8, T0, newcomer.pk, claimed.pk, 0)], now=T0)
    assert Player.objects.filter(user=newcomer).count() == 1


def test_a_match_ending_after_now_is_not_final_yet():
    a, b = UserFactory(), UserFactory()
    rows = [(1, T0, a.pk, b.pk, 5), (2, T0 + timedelta(minutes=1), a.pk, b.pk, 5)]
    assert [s.casual_match for s in casual_periods(rows, now=T0)] == [1]


def test_no_installed_app_offers_casual_matches_yet():
    # play's rated_periods lands on its own branch; until then nothing is offered.
    assert offered_casual("thud") == []


@pytest.fixture
def offer(monkeypatch):
    """Another app offering rated casual matches, registered as play registers its own."""
    offered: list = []
    monkeypatch.setattr(sources, "offers", list(sources.offers))
    register(rated_periods=lambda game: list(offered))
    return offered


def test_casual_matches_are_rated_in_order_with_rounds_and_a_late_one_recomputes(offer):
    t = tournament_with_players(4)
    play_round(t, 1)
    play_round(t, 2)  # round 1 finishes at T0 + 2 h
    a, b = UserFactory(), UserFactory()
    offer.append((5, T0 + timedelta(hours=3), a.pk, b.pk, 4))
    assert update_ratings("thud", now=LATER) == Applied.INCREMENTAL
    change = RatingChange.objects.get(player__user=a)
    assert (change.key_a, change.key_b, change.casual_match) == (CASUAL, 5, 5)
    assert history(change.player, "thud")[0].where == "Casual match"
    # A casual match that ended before the last applied period: recompute, same as anew.
    offer.append((6, T0 + timedelta(hours=1), a.pk, b.pk, -4))
    assert update_ratings("thud", now=LATER) == Applied.RECOMPUTED
    after = stored("thud")
    recompute("thud", now=LATER)
    assert stored("thud") == after
    assert [c.casual_match for c in RatingChange.objects.filter(player__user=a)] == [6, 5]
