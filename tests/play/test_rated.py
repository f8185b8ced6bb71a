"""The people's ratings read no match with a bot account in it (``play.rated``): a bot
pair's rated match leaves the site ratings untouched, a person pair's still rates, and a
recompute drops bot matches applied before (``tournaments.rating.update``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from accounts.models import UserProfile
from ratings.periods import Period, RatedMatch, fold, score_from_differential
from tests.factories import UserFactory
from tests.play.league_support import bot, ended
from tournaments import for_games
from tournaments.models.people import Player
from tournaments.models.ratings import RatedPeriod, SiteRating
from tournaments.rating.update import Applied, recompute

pytestmark = pytest.mark.django_db


def offered(game="thud"):
    return apps.get_app_config("play").rated_periods(game)


def site_ratings(game="thud"):
    return sorted(
        SiteRating.objects.filter(game=game).values_list(
            "player__user__username", "rating", "rd", "volatility", "matches"
        )
    )


def test_only_matches_between_two_people_are_offered_to_the_ratings():
    t = timezone.now() - timedelta(hours=1)
    no_profile, person = UserFactory(), UserFactory()
    UserProfile.objects.create(user=person, language="it")  # a profile row, not a bot
    b1, b2 = bot(), bot()
    people = ended(no_profile, person, ended_at=t, diff=3)
    ended(b1, b2, ended_at=t, diff=5)
    # A bot against a person is made unrated when created; rated rows are refused anyway.
    ended(b1, person, ended_at=t, diff=1)
    ended(person, b2, ended_at=t, diff=-1)
    assert offered() == [(people.pk, t, no_profile.pk, person.pk, 3)]


def test_a_bot_pairs_rated_match_leaves_the_site_ratings_untouched_a_persons_still_rates():
    now = timezone.now()
    a, b = UserFactory(username="ann"), UserFactory(username="bob")
    ended(a, b, ended_at=now - timedelta(hours=2), diff=4)
    assert for_games.update_ratings("thud", now=now) == Applied.INCREMENTAL
    before = site_ratings()
    assert [r[0] for r in before] == ["ann", "bob"]
    ended(bot(), bot(), ended_at=now - timedelta(hours=1), diff=7)
    assert for_games.update_ratings("thud", now=now) == Applied.NOTHING
    assert site_ratings() == before
    ended(b, a, ended_at=now - timedelta(minutes=30), diff=2)
    assert for_games.update_ratings("thud", now=now) == Applied.INCREMENTAL
    after = site_ratings()
    assert [r[4] for r in after] == [2, 2] and after != before
    assert not Player.objects.filter(user__profile__is_bot=True).exists()


def test_a_recompute_gives_peoples_ratings_that_ignore_bot_matches_applied_before():
    now = timezone.now()
    a, b, x, y = (UserFactory(username=n) for n in ("ann", "bob", "xbot", "ybot"))
    t1, t2 = now - timedelta(hours=3), now - timedelta(hours=2)
    person_match = ended(a, b, ended_at=t1, diff=-6)
    ended(x, y, ended_at=t2, diff=9)
    for_games.update_ratings("thud", now=now)  # as before bots had their own pool
    assert len(site_ratings()) == 4
    for user in (x, y):
        UserProfile.objects.create(user=user, is_bot=True, became_bot_at=now)
    # The applied bot match is no longer offered: a changed period, so a recompute.
    assert for_games.update_ratings("thud", now=now) == Applied.RECOMPUTED
    assert recompute("thud", now=now) == Applied.RECOMPUTED
    pa, pb = (Player.objects.get(user=u).pk for u in (a, b))
    expected = fold(
        [Period(t1, (0, person_match.pk), (RatedMatch(pa, pb, score_from_differential(-6)),))]
    ).states
    assert site_ratings() == [
        (name, r.rating, r.rd, r.volatility, 1)
        for name, r in (("ann", expected[pa].rating), ("bob", expected[pb].rating))
    ]
    assert RatedPeriod.objects.filter(game="thud").count() == 1
