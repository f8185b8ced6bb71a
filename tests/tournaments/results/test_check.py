"""The database's own check of the result numbers: each game's limits, from its scale.

``tournaments.models`` knows no game: the check is built from the scales the games app
registers (``tournaments.models.results.range_check``), so these tests pin what it enforces and
that the migrations say the same as the model.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.factories import tournament_with_players
from tournaments.models.results import ResultVersion
from tournaments.results.final import record_final_result
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


def test_thud_rows_hold_at_most_32_first_side_and_8_second_side():
    version = a_version("thud", (20, 3, 10, 4))
    assert stores(version, battle1_first=32, battle2_first=32, battle1_second=8, battle2_second=8)
    assert not stores(version, battle1_first=33)
    assert not stores(version, battle2_first=33)
    assert not stores(version, battle1_second=9)
    assert not stores(version, battle2_second=9)


def test_cavalli_rows_hold_at_most_the_sum_of_its_board():
    version = a_version("cavalli", (3000, 1200, 1000, 2600))
    assert stores(version, battle1_first=4950, battle2_second=4950)
    assert not stores(version, battle1_second=4951)
    assert not stores(version, battle2_first=4951)


def test_a_game_nobody_registered_keeps_the_generic_bound():
    version = a_version("thud", (20, 3, 10, 4))
    assert stores(version, game="other", battle1_first=9999)
    assert not stores(version, game="other", battle1_first=10000)


def test_the_migrations_match_the_models():
    # The check follows the registered scales: a changed limit needs a migration.
    call_command("makemigrations", "tournaments", "--check", "--dry-run", verbosity=0)
