"""Entering a bot account (``tournaments.organising.bots``): every refusal changes nothing;
an entry reuses the bot's own Player or makes one in its username's name."""

from __future__ import annotations

import pytest

from tests.factories import EntryFactory, PlayerFactory, UserFactory, bot_account
from tests.factories import tournament_with_players as with_players
from tournaments.models.people import Player
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.bots import BotEntryError, enter_bot
from tournaments.rating import bot_accounts

pytestmark = pytest.mark.django_db


def state(t: Tournament) -> tuple[object, ...]:
    """Everything a refusal must leave as it was."""
    return (
        sorted(Entry.objects.values_list("pk", "tournament_id", "player_id", "seed")),
        sorted(Player.objects.values_list("pk", "name", "user_id")),
        Tournament.objects.get(pk=t.pk).state_version,
    )


def test_a_bot_is_entered_with_the_next_seed_as_a_new_player_named_by_its_username():
    t, bot = with_players(3, allow_bots=True), bot_account(username="koom_bot")
    version = Tournament.objects.get(pk=t.pk).state_version
    entry = enter_bot(t, username=" koom_bot ")
    assert (entry.seed, entry.player.name, entry.player.user) == (4, "koom_bot", bot)
    assert Tournament.objects.get(pk=t.pk).state_version == version + 1


def test_a_bot_plays_as_its_own_player_in_every_tournament():
    bot = bot_account(username="koom_bot")
    own = PlayerFactory(user=bot, name="Koom Bot 2")
    first = enter_bot(with_players(2, allow_bots=True), username="koom_bot")
    second = enter_bot(with_players(1, allow_bots=True), username="koom_bot")
    assert first.player == second.player == own
    assert Player.objects.filter(user=bot).count() == 1


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("bots not allowed", "does not allow bot accounts"),
        ("closed", "The tournament is closed"),
        ("no such user", "No user named nobody"),
        ("a person", "alice is not a bot account"),
        ("entered already", "koom_bot is already entered"),
        ("a namesake entered", "koom_bot is already entered"),
    ],
)
def test_a_refused_bot_changes_nothing(case, message):
    t = with_players(2, allow_bots=case != "bots not allowed")
    bot_account(username="koom_bot")
    UserFactory(username="alice")
    username = {"no such user": "nobody", "a person": "alice"}.get(case, "koom_bot")
    if case == "closed":
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    if case == "entered already":
        enter_bot(t, username="koom_bot")
    if case == "a namesake entered":
        EntryFactory(tournament=t, player__name="Koom_Bot", seed=3)
    before = state(t)
    with pytest.raises(BotEntryError, match=message):
        enter_bot(Tournament.objects.get(pk=t.pk), username=username)
    assert state(t) == before


def test_with_no_app_saying_who_is_a_bot_nobody_can_be_entered_as_one(monkeypatch):
    monkeypatch.setattr(bot_accounts, "judges", [])
    t = with_players(2, allow_bots=True)
    bot_account(username="koom_bot")
    before = state(t)
    with pytest.raises(BotEntryError, match="not a bot account"):
        enter_bot(t, username="koom_bot")
    assert state(t) == before


def test_a_bot_whose_own_player_has_a_namesake_entered_is_refused():
    t, bot = with_players(2, allow_bots=True), bot_account(username="koom_bot")
    PlayerFactory(user=bot, name="Koom Bot 2")
    EntryFactory(tournament=t, player__name="Koom Bot 2", seed=3)
    before = state(t)
    with pytest.raises(BotEntryError, match="Koom Bot 2 is already entered"):
        enter_bot(t, username="koom_bot")
    assert state(t) == before
