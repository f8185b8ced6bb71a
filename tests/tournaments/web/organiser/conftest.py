"""Fixtures of the organiser's pages: a tournament of four players, its owner signed in."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import tournament_with_players
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round


@pytest.fixture
def tournament():
    return tournament_with_players(4, rounds=3)


@pytest.fixture
def organiser(client, tournament):
    client.force_login(tournament.owner)
    return client


@pytest.fixture
def started(tournament):
    """Round 1 published: play has started."""
    publish_round(pair_next_round(tournament, by=None, now=timezone.now()), now=timezone.now())
    return tournament
