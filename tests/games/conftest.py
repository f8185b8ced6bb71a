"""Fixtures for battle and clock tests: matches with scaled clocks, and (for the
``clock`` marked tests) real Celery worker / beat and uvicorn subprocesses."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Entry, Match, Player, Round, Tournament

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
    rnd = Round.objects.create(tournament=t, number=1)
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


@pytest.fixture
def match(db) -> Match:
    return make_match()[0]


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
