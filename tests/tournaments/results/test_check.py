"""The result numbers' guards: the database bounds any game's numbers
(``tournaments.models.results.range_check``, naming no game, so a new game needs no
migration); each game's own limits are its scale's, refused at the write by ``MatchResult``.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.factories import tournament_with_players
from tournaments.models.results import ResultVersion
from tournaments.results.final import record_final_result
from tournaments.results.writing import ResultError
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db


def a_version(game: str, numbers) -> ResultVersion:
    t = tournament_with_players(2, game=game)
    (m,) = publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.all()
    return record_final_result(m, survivors=numbers, by=None, source="import", now=timezone.now())


def stores(version: ResultVersion, **numbers) -> bool:
    """Whether the database accepts ``numbers`` in ``version`` (no model validation)."""
    try:
        with transaction.atomic():
            ResultVersion.objects.filter(pk=version.pk).update(**numbers)
    except IntegrityError:
        return False
    return True


def test_the_database_bounds_any_games_numbers():
    version = a_version("thud", (20, 3, 10, 4))
    assert stores(version, battle1_first=9999, battle2_second=9999)
    assert stores(version, game="other", battle1_first=9999)
    assert not stores(version, battle1_first=10000)
    assert not stores(version, game="other", battle2_second=10000)


@pytest.mark.parametrize(
    ("game", "within", "beyond"),
    [
        ("thud", (32, 8, 32, 8), [(33, 8, 32, 8), (32, 9, 32, 8), (32, 8, 33, 8), (32, 8, 32, 9)]),
        ("cavalli", (4950, 4950, 4950, 4950), [(4951, 0, 0, 0), (0, 0, 0, 4951)]),
    ],
)
def test_a_write_refuses_numbers_beyond_the_games_limits(game, within, beyond):
    # The write takes a MatchResult: a game's limits are refused there, at the edge.
    version = a_version(game, within)
    assert version.survivors.as_tuple() == within
    for numbers in beyond:
        with pytest.raises(ResultError, match="must be between 0 and"):
            a_version(game, numbers)


def test_the_migrations_match_the_models():
    call_command("makemigrations", "tournaments", "--check", "--dry-run", verbosity=0)
