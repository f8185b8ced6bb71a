"""The organiser role: granted and revoked by a superuser on /manage/organisers/."""

from __future__ import annotations

import importlib
import io

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.core.management import call_command

from tests.factories import UserFactory
from tournaments.models.tournament import Tournament
from tournaments.permissions.roles import ORGANISERS_GROUP, can_create_tournament

pytestmark = pytest.mark.django_db

ROLES = "/manage/organisers/"
NEW = {
    "name": "Bonk Open",
    "format": "swiss",
    "rounds": 3,
    "variant": "classic",
    "capture_policy": "subset",
    "points_win": 2,
    "points_draw": 1,
    "points_loss": 0,
    "pairing_seed": 0,
}


def members() -> set[str]:
    return set(Group.objects.get(name=ORGANISERS_GROUP).user_set.values_list("username", flat=True))


@pytest.fixture
def superuser(client):
    client.force_login(UserFactory(is_superuser=True, username="archchancellor"))
    return client


def test_a_granted_user_creates_tournaments_until_revoked(superuser, client):
    user = UserFactory(username="susan")
    client.force_login(user)
    assert client.get("/manage/t/new/").status_code == 403
    assert client.post("/manage/t/new/", NEW).status_code == 403
    client.force_login(UserFactory(is_superuser=True))
    response = client.post(ROLES + "grant/", {"username": "susan"}, follow=True)
    assert "susan may now create tournaments" in response.content.decode()
    assert members() == {"susan"}
    client.force_login(user)
    assert client.post("/manage/t/new/", NEW).status_code == 302
    assert Tournament.objects.get(slug="bonk-open").owner == user
    client.force_login(UserFactory(is_superuser=True))
    client.post(ROLES + f"{user.pk}/revoke/")
    assert members() == set()
    client.force_login(user)
    assert client.get("/manage/t/new/").status_code == 403
    # Revoking stops new tournaments only: the one they own stays theirs.
    assert client.get("/manage/t/bonk-open/").status_code == 200


def test_the_page_lists_organisers_with_a_revoke_button(superuser):
    user = UserFactory(username="ponder")
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    page = superuser.get(ROLES).content.decode()
    assert "ponder" in page and f'action="{ROLES}{user.pk}/revoke/"' in page


def test_granting_an_unknown_username_says_so_and_grants_nothing(superuser):
    response = superuser.post(ROLES + "grant/", {"username": "ghost"}, follow=True)
    assert "No user named ghost" in response.content.decode()
    assert members() == set()


@pytest.mark.parametrize(
    "who",
    [{}, {"is_staff": True}, {"organiser": True}],
    ids=["plain user", "staff", "organiser"],
)
def test_only_superusers_reach_the_organisers_page(client, who):
    target = UserFactory(username="rincewind")
    user = UserFactory(is_staff=who.get("is_staff", False))
    if who.get("organiser"):
        user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    client.force_login(user)
    assert client.get(ROLES).status_code == 403
    assert client.post(ROLES + "grant/", {"username": "rincewind"}).status_code == 403
    target.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    assert client.post(ROLES + f"{target.pk}/revoke/").status_code == 403
    assert "rincewind" in members()


def test_anonymous_visitors_are_sent_to_login(client):
    response = client.get(ROLES)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_page_is_linked_for_superusers_only(client):
    client.force_login(UserFactory(is_superuser=True))
    assert f'href="{ROLES}"' in client.get("/manage/t/new/").content.decode()
    member = UserFactory()
    member.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    client.force_login(member)
    assert f'href="{ROLES}"' not in client.get("/manage/t/new/").content.decode()


def test_the_migration_creates_the_group_and_keeps_staff_able_to_create():
    # Transactional tests flush rows that migrations created, so start from none.
    Group.objects.filter(name=ORGANISERS_GROUP).delete()
    migration = importlib.import_module("tournaments.migrations.0005_organisers_group")
    staff, plain, superuser = (
        UserFactory(is_staff=True),
        UserFactory(),
        UserFactory(is_staff=True, is_superuser=True),
    )
    migration.create_group(apps, None)
    assert members() == {staff.username}
    assert can_create_tournament(staff) and not can_create_tournament(plain)
    assert superuser.groups.count() == 0  # superusers need no group


def test_load_demo_makes_the_demo_organiser_an_organiser():
    call_command("load_demo", stdout=io.StringIO())
    assert "organiser" in members()
