"""Appointing and removing referees, co-organisers and organisers, through the pages."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from tests.factories import TournamentFactory, UserFactory
from tournaments.permissions.roles import ORGANISERS_GROUP

pytestmark = pytest.mark.django_db


def organisers() -> set[str]:
    group = Group.objects.get_or_create(name=ORGANISERS_GROUP)[0]
    return set(group.user_set.values_list("username", flat=True))


@pytest.fixture
def tournament():
    return TournamentFactory(slug="lancre")


@pytest.fixture
def owner(client, tournament):
    client.force_login(tournament.owner)
    return client


@pytest.fixture
def superuser(client):
    client.force_login(UserFactory(is_superuser=True))
    return client


@pytest.mark.parametrize(
    ("path", "holders"),
    [
        ("/manage/t/lancre/referees/", lambda t: set(t.referees.all())),
        ("/manage/t/lancre/co-organisers/", lambda t: set(t.co_organisers.all())),
        ("/manage/organisers/grant/", lambda t: organisers()),
    ],
    ids=["referee", "co-organiser", "organiser"],
)
def test_an_inactive_account_cannot_be_appointed(client, tournament, path, holders):
    UserFactory(username="ridcully", is_active=False)
    client.force_login(UserFactory(is_superuser=True))
    page = client.post(path, {"username": "ridcully"}, follow=True).content.decode()
    assert "The account ridcully is deactivated and cannot be appointed." in page
    for success in ("Referee appointed.", "is now a co-organiser", "may now create tournaments"):
        assert success not in page
    assert holders(tournament) == set()


def test_removing_someone_who_is_not_a_referee_says_so_and_changes_nothing(owner, tournament):
    referee, stranger = UserFactory(username="ridcully"), UserFactory(username="rincewind")
    tournament.referees.add(referee)
    url = f"/manage/t/lancre/referees/{stranger.pk}/remove/"
    page = owner.post(url, follow=True).content.decode()
    assert "rincewind is not a referee of this tournament; nothing changed." in page
    assert "Referee removed." not in page
    assert list(tournament.referees.all()) == [referee]
    page = owner.post(f"/manage/t/lancre/referees/{referee.pk}/remove/", follow=True)
    assert "Referee removed." in page.content.decode()
    assert not tournament.referees.exists()


def test_removing_someone_who_is_not_a_co_organiser_says_so_and_changes_nothing(owner, tournament):
    helper, stranger = UserFactory(username="magrat"), UserFactory(username="rincewind")
    tournament.co_organisers.add(helper)
    url = f"/manage/t/lancre/co-organisers/{stranger.pk}/remove/"
    page = owner.post(url, follow=True).content.decode()
    assert "rincewind is not a co-organiser of this tournament; nothing changed." in page
    assert "Co-organiser removed." not in page
    assert list(tournament.co_organisers.all()) == [helper]


def test_revoking_the_role_from_someone_who_is_not_an_organiser_says_so(superuser):
    stranger = UserFactory(username="rincewind")
    page = superuser.post(f"/manage/organisers/{stranger.pk}/revoke/", follow=True)
    page = page.content.decode()
    assert "rincewind is not an organiser; nothing changed." in page
    assert "may no longer create tournaments" not in page
