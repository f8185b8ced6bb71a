"""Who is a bot account (``tournaments.rating.bot_accounts``, an app's contribution), and the
ratings' rule (``rating.sources``): a tournament match with a bot on either side rates nobody."""

from __future__ import annotations

import pytest

from accounts.models import UserProfile
from tests.factories import UserFactory, bot_account, tournament_with_players
from tests.tournaments.rating.helpers import play_round
from tournaments.contributions import register
from tournaments.models.ratings import RatingChange
from tournaments.models.rounds import Match
from tournaments.rating import bot_accounts
from tournaments.rating.bot_accounts import bots_among
from tournaments.rating.sources import tournament_periods

pytestmark = pytest.mark.django_db


@pytest.fixture
def nothing_registered(monkeypatch):
    monkeypatch.setattr(bot_accounts, "judges", [])


def test_with_no_app_registered_nobody_is_a_bot(nothing_registered):
    assert bots_among([bot_account().pk, UserFactory().pk, None]) == set()


def test_a_registered_app_says_who_is_a_bot_and_is_asked_about_accounts_only(nothing_registered):
    asked = []
    register(bot_accounts=lambda ids: asked.append(list(ids)) or {ids[0]})
    assert bots_among([7, None, 3, 7]) == {3}
    assert bots_among([None]) == set()  # no account: a person, and nobody is asked
    assert asked == [[3, 7]]


def test_play_says_who_is_a_bot():
    bot, person, half = bot_account(), UserFactory(), UserFactory()
    UserProfile.objects.create(user=half, language="it")  # a profile, but not a bot's
    assert bots_among([bot.pk, person.pk, half.pk]) == {bot.pk}


def rated_users(round_number: int) -> set[int | None]:
    """The accounts of the players rated for that round of the tournament."""
    changes = RatingChange.objects.filter(round__number=round_number)
    return set(changes.values_list("player__user_id", flat=True))


@pytest.mark.parametrize("bot_side", ["a", "b"])
def test_a_match_with_a_bot_is_not_rated_and_the_rest_of_its_round_is(bot_side):
    t = tournament_with_players(4)
    play_round(t, 1)
    bot_match, people_match = Match.objects.filter(round__number=1).order_by("table")
    bot, person, *people = (UserFactory() for _ in range(4))
    sides = (bot_match.player_a, bot_match.player_b)
    entries = (*(sides if bot_side == "a" else sides[::-1]), people_match.player_a)
    entries += (people_match.player_b,)
    for entry, user in zip(entries, (bot, person, *people), strict=True):
        entry.player.user = user
        entry.player.save()
    UserProfile.objects.create(user=bot, is_bot=True)
    play_round(t, 2)  # round 1 finishes and is rated
    (period,) = [s.period for s in tournament_periods(t.game) if s.round_id == bot_match.round_id]
    pairs = {frozenset((m.player, m.opponent)) for m in period.matches}
    assert pairs == {frozenset((people_match.player_a.player_id, people_match.player_b.player_id))}
    assert rated_users(1) == {people[0].pk, people[1].pk}


def test_two_bots_match_in_a_tournament_is_not_rated_either():
    t = tournament_with_players(2)
    play_round(t, 1)
    (m,) = Match.objects.filter(round__number=1)
    for entry in (m.player_a, m.player_b):
        entry.player.user = bot_account()
        entry.player.save()
    play_round(t, 2)
    assert not [s for s in tournament_periods(t.game) if s.round_id == m.round_id]
    assert not RatingChange.objects.exists()
