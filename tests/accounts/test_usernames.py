"""Look-alike usernames against the database, and the admin's user forms."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.admin import UserChangeFormRefusingLookAlikes
from accounts.usernames import look_alike
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BOB_CYRILLIC = "b\u043eb"
SECRET = "b4shfull-Dwarf"


def test_look_alike_names_the_existing_user_whatever_the_case():
    bob = UserFactory(username="Bob")
    UserFactory(username="rob")
    assert look_alike(BOB_CYRILLIC) == "Bob"
    assert look_alike("b0b") == "Bob"
    assert look_alike(BOB_CYRILLIC, exclude_pk=bob.pk) is None
    assert look_alike("nobby") is None


@pytest.mark.parametrize(
    ("username", "message"),
    [
        (BOB_CYRILLIC, "looks too much like the existing username bob"),
        ("BOB", "A user with that username already exists"),
    ],
)
def test_the_admin_cannot_add_a_look_alike(client, username, message):
    UserFactory(username="bob")
    client.force_login(UserFactory(username="archchancellor", is_staff=True, is_superuser=True))
    data = {"username": username, "password1": SECRET, "password2": SECRET}
    response = client.post("/admin/auth/user/add/", data | {"usable_password": "true"})
    assert response.status_code == 200
    assert message in response.content.decode()
    usernames = set(get_user_model().objects.values_list("username", flat=True))
    assert usernames == {"bob", "archchancellor"}


def test_the_admin_cannot_rename_someone_into_a_look_alike_but_edits_other_fields():
    UserFactory(username="bob")
    other = UserFactory(username="carrot")
    fields = {"email": "", "date_joined": "2026-01-01 00:00:00", "is_active": "on"}
    rename = UserChangeFormRefusingLookAlikes({"username": BOB_CYRILLIC, **fields}, instance=other)
    assert not rename.is_valid() and "username" in rename.errors
    keep = UserChangeFormRefusingLookAlikes({"username": "carrot", **fields}, instance=other)
    assert keep.is_valid(), keep.errors
