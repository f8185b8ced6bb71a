"""Creating tournaments of one name at once: every one gets its own slug (PostgreSQL).

Each "new tournament" post runs in its own thread and database connection, released
together by a barrier, so the unique index on the slug decides, as in production.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.test import Client

from tests.factories import TournamentFactory, UserFactory
from tests.tournaments.results.test_workflow_concurrency import race
from tests.tournaments.web.organiser.pages import NEW_TOURNAMENT
from tournaments.models.tournament import Tournament
from tournaments.organising.creation import SlugTaken, create_tournament
from tournaments.permissions.roles import ORGANISERS_GROUP

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real concurrency"),
    pytest.mark.timeout(120),
]


def post_new(organiser, data: dict):
    def post():
        client = Client()
        client.force_login(organiser)
        return client.post("/manage/t/new/", data)

    return post


@pytest.fixture
def organisers():
    # Ten organisers, so each post also races the others' sessions, as ten people would.
    group = Group.objects.get_or_create(name=ORGANISERS_GROUP)[0]
    users = [UserFactory() for _ in range(10)]
    group.user_set.add(*users)
    return users


def test_ten_parallel_new_tournaments_of_one_name_each_get_a_slug(organisers):
    responses = race(*[post_new(user, NEW_TOURNAMENT) for user in organisers])
    assert [getattr(r, "status_code", r) for r in responses] == [302] * 10
    slugs = {"lancre-open"} | {f"lancre-open-{n}" for n in range(2, 11)}
    assert set(Tournament.objects.values_list("slug", flat=True)) == slugs
    assert {r["Location"] for r in responses} == {f"/manage/t/{s}/" for s in slugs}
    assert {t.owner for t in Tournament.objects.all()} == set(organisers)


def test_a_typed_slug_taken_meanwhile_is_refused_not_changed(organisers):
    data = NEW_TOURNAMENT | {"slug": "lancre"}
    responses = race(*[post_new(user, data) for user in organisers[:6]])
    statuses = sorted(getattr(r, "status_code", r) for r in responses)
    assert statuses == [302] + [400] * 5, responses
    refused = [r for r in responses if r.status_code == 400]
    assert all(
        "The address lancre is taken by another tournament" in r.content.decode() for r in refused
    )
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["lancre"]


def test_in_a_transaction_a_taken_slug_is_retried_in_a_savepoint():
    # The view runs in autocommit; a caller inside a transaction (a command, an import)
    # must keep a usable transaction after the failed insert.
    owner = UserFactory()
    TournamentFactory(slug="lancre-open")
    with transaction.atomic():
        made = Tournament(name="Lancre Open", slug="lancre-open")
        assert create_tournament(made, owner=owner, slug_from_name=True).slug == "lancre-open-2"
        typed = Tournament(name="Lancre Open", slug="lancre-open")
        with pytest.raises(SlugTaken, match="The address lancre-open is taken"):
            create_tournament(typed, owner=owner, slug_from_name=False)
        assert Tournament.objects.count() == 2
