"""factory_boy factories shared by the database tests (no JSON fixtures)."""

from __future__ import annotations

import itertools

import factory
from django.contrib.auth import get_user_model

from accounts.models import UserProfile
from tournaments.models.people import Player
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):  # noqa: N805
        if create:
            obj.save()


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")
    owner = factory.SubFactory(UserFactory)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    seed = factory.Sequence(lambda n: n + 1)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = 1
    status = Round.Status.PUBLISHED


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    player_a = factory.LazyAttribute(lambda o: EntryFactory(tournament=o.round.tournament))
    player_b = factory.LazyAttribute(lambda o: EntryFactory(tournament=o.round.tournament))


def bot_account(**fields):
    """A bot account: a user whose profile is flagged, as ``play.bots.become_bot`` leaves it."""
    user = UserFactory(**fields)
    UserProfile.objects.create(user=user, is_bot=True)
    return user


def tournament_with_players(n: int, **tournament_fields) -> Tournament:
    """A tournament with ``n`` entries seeded 1..n."""
    tournament = TournamentFactory(**tournament_fields)
    for seed in range(1, n + 1):
        EntryFactory(tournament=tournament, seed=seed)
    return tournament


_seq = itertools.count(1)

# Scaled phases for tests (reference/clocks-architecture.md §6.4).
SCALED = {"think_ms": 1000, "move_ms": 500, "grace_ms": 50}


def make_match(
    *, variant: str = "timed24", users: bool = True, tables: int = 1, **tournament_fields
) -> list[Match]:
    n = next(_seq)
    User = get_user_model()
    owner = User.objects.create_user(f"org{n}", password="pw-org-123456")
    referee = User.objects.create_user(f"ref{n}", password="pw-ref-123456")
    fields = {"variant": variant} | SCALED | tournament_fields
    t = Tournament.objects.create(name=f"T{n}", slug=f"t{n}", owner=owner, **fields)
    t.referees.add(referee)
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    matches = []
    for table in range(1, tables + 1):
        entries = []
        for letter in "ab":
            user = (
                User.objects.create_user(f"p{n}{letter}{table}", password="pw-player-123")
                if users
                else None
            )
            player = Player.objects.create(name=f"P{n}{letter}{table}", user=user)
            entries.append(Entry.objects.create(tournament=t, player=player))
        matches.append(
            Match.objects.create(round=rnd, table=table, player_a=entries[0], player_b=entries[1])
        )
    return matches
