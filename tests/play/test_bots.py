"""Bot accounts (``play.bots``): becoming one once, before having played; the rating rule
of a bot against a person (``play.matches``); the BOT mark (``play.templatetags.bot_mark``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.template import Context, Template
from django.utils import timezone

from accounts.models import UserProfile
from games.battles.starting import create_battles, create_casual_battle
from play import bots, challenges
from play.models import CasualMatch
from tests.factories import UserFactory, make_match

pytestmark = pytest.mark.django_db


def test_a_new_account_becomes_a_bot_account_with_the_time_it_did():
    user, now = UserFactory(), timezone.now()
    assert not bots.is_bot(user)
    bots.become_bot(user, now=now)
    profile = UserProfile.objects.get(user=user)
    assert (profile.is_bot, profile.became_bot_at) == (True, now)
    assert bots.is_bot(user)


def test_becoming_a_bot_is_irreversible_a_second_time_is_refused_and_changes_nothing():
    user, now = UserFactory(), timezone.now()
    bots.become_bot(user, now=now)
    with pytest.raises(bots.BotRefused, match="bot account already"):
        bots.become_bot(user, now=now + timedelta(days=1))
    profile = UserProfile.objects.get(user=user)
    assert (profile.is_bot, profile.became_bot_at) == (True, now)


def test_a_user_without_a_profile_row_is_a_person():
    user = UserFactory()
    assert not UserProfile.objects.filter(user=user).exists()
    assert not bots.is_bot(user) and not bots.is_bot(None)


def test_the_flag_is_read_from_a_profile_made_for_another_reason():
    user = UserFactory()
    UserProfile.objects.create(user=user, language="it")
    bots.become_bot(user, now=timezone.now())
    assert UserProfile.objects.get(user=user).language == "it"
    assert bots.is_bot(UserFactory._meta.model.objects.get(pk=user.pk))


@pytest.mark.parametrize("seat", ["first", "second"])
def test_refused_after_a_casual_battle(seat):
    user, other, now = UserFactory(), UserFactory(), timezone.now()
    first, second = (user, other) if seat == "first" else (other, user)
    create_casual_battle(
        game="cavalli", first=first, second=second, timing="correspondence", now=now
    )
    with pytest.raises(bots.BotRefused, match="played already"):
        bots.become_bot(user, now=now)
    assert not bots.is_bot(UserFactory._meta.model.objects.get(pk=user.pk))
    assert not UserProfile.objects.filter(user=user, is_bot=True).exists()


def test_refused_after_a_tournament_battle():
    match = make_match()[0]
    create_battles(match, now=timezone.now())
    user = match.player_b.player.user
    with pytest.raises(bots.BotRefused, match="played already"):
        bots.become_bot(user, now=timezone.now())
    assert not UserProfile.objects.filter(user=user, is_bot=True).exists()


def test_refused_when_paired_in_a_tournament_match_without_a_battle():
    match = make_match()[0]
    with pytest.raises(bots.BotRefused, match="played already"):
        bots.become_bot(match.player_a.player.user, now=timezone.now())


def test_an_entry_in_a_tournament_not_yet_paired_is_no_game_played():
    match = make_match()[0]
    user = UserFactory()
    type(match.player_a.player).objects.create(name="Later", user=user)
    bots.become_bot(user, now=timezone.now())
    assert bots.is_bot(user)


def test_refused_when_entered_in_a_tournament_as_a_person_not_yet_paired():
    match = make_match()[0]
    user = UserFactory()
    player = type(match.player_a.player).objects.create(name="Entered", user=user)
    type(match.player_a).objects.create(tournament=match.round.tournament, player=player)
    with pytest.raises(bots.BotRefused, match="entered in a tournament as a person"):
        bots.become_bot(user, now=timezone.now())
    assert not UserProfile.objects.filter(user=user, is_bot=True).exists()


@pytest.mark.parametrize("who", ["challenger", "opponent"])
def test_refused_with_a_live_challenge_allowed_once_it_expired(who):
    alice, bob, now = UserFactory(), UserFactory(), timezone.now()
    c = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=now
    )
    user = alice if who == "challenger" else bob
    with pytest.raises(bots.BotRefused, match="open challenges"):
        bots.become_bot(user, now=now)
    assert not UserProfile.objects.filter(user=user, is_bot=True).exists()
    bots.become_bot(user, now=c.expires_at + timedelta(seconds=1))
    assert UserProfile.objects.get(user=user).is_bot


def test_refused_with_an_open_seek():
    alice, now = UserFactory(), timezone.now()
    challenges.create_challenge(by=alice, game="thud", timing="quickfire", now=now)
    with pytest.raises(bots.BotRefused, match="open challenges"):
        bots.become_bot(alice, now=now)


def rated_challenge_accepted(challenger, opponent, *, now) -> CasualMatch:
    c = challenges.create_challenge(
        by=challenger,
        opponent=opponent,
        game="thud",
        timing="quickfire",
        first="challenger",
        rated_match=True,
        now=now,
    )
    battle = challenges.accept(c.pk, by=opponent, now=now)
    return CasualMatch.objects.get(battle_1=battle)


def bot(now):
    user = UserFactory()
    bots.become_bot(user, now=now)
    return UserFactory._meta.model.objects.get(pk=user.pk)  # a fresh object, as a request's


@pytest.mark.parametrize("bot_challenges", [True, False])
def test_a_rated_challenge_between_a_bot_and_a_person_is_played_unrated(bot_challenges):
    now = timezone.now()
    robot, person = bot(now), UserFactory()
    pair = (robot, person) if bot_challenges else (person, robot)
    match = rated_challenge_accepted(*pair, now=now)
    assert (match.rated, match.unrated_reason) == (False, CasualMatch.UnratedReason.BOT)


def test_a_rated_challenge_between_two_bots_stays_rated():
    now = timezone.now()
    match = rated_challenge_accepted(bot(now), bot(now), now=now)
    assert (match.rated, match.unrated_reason) == (True, CasualMatch.UnratedReason.NONE)


def test_a_rated_challenge_between_two_people_stays_rated():
    now = timezone.now()
    match = rated_challenge_accepted(UserFactory(), UserFactory(), now=now)
    assert match.rated


MARK = Template("{% load bot_mark %}[{{ user|bot_mark }}][{{ user|name_with_bot_mark }}]")


def test_the_bot_mark_shows_after_a_bot_accounts_name_and_says_what_it_means():
    robot = bot(timezone.now())
    robot.username = "r2<b>"
    html = MARK.render(Context({"user": robot}))
    mark = '<abbr class="bot-mark" title="A program plays this account">BOT</abbr>'
    assert html == f"[ {mark}][r2&lt;b&gt; {mark}]"


def test_no_mark_for_a_person_nor_for_no_user():
    person = UserFactory(username="ann")
    assert MARK.render(Context({"user": person})) == "[][ann]"
    assert MARK.render(Context({"user": None})) == "[][]"


def test_play_tells_the_tournaments_which_users_are_bot_accounts():
    bot, person, profiled = UserFactory(), UserFactory(), UserFactory()
    bots.become_bot(bot, now=timezone.now())
    UserProfile.objects.create(user=profiled, language="nb")
    assert bots.bots_among([bot.pk, person.pk, profiled.pk]) == {bot.pk}
    assert bots.bots_among([]) == set()
