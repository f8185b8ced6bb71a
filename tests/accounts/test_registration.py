"""Self-registration (``/accounts/register/``): limited per client address."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse

from accounts.forms import REGISTRATIONS_PER_ADDRESS

pytestmark = pytest.mark.django_db

SECRET = "b4shfull-Dwarf"
LIMITED = "Too many accounts have been created from your address"


def register(username: str, addr: str = "10.0.0.1", password2: str = SECRET):
    data = {"username": username, "password1": SECRET, "password2": password2}
    return Client().post(reverse("register"), data, REMOTE_ADDR=addr)


def usernames() -> set[str]:
    return set(get_user_model().objects.values_list("username", flat=True))


def test_registration_beyond_the_limit_from_one_address_is_refused_and_creates_nothing():
    for i in range(REGISTRATIONS_PER_ADDRESS):
        assert register(f"dwarf{i}").status_code == 302
    response = register("one-too-many")
    assert response.status_code == 200
    assert LIMITED in response.content.decode()
    assert "_auth_user_id" not in response.client.session
    assert usernames() == {f"dwarf{i}" for i in range(REGISTRATIONS_PER_ADDRESS)}
    # Another address has its own budget.
    assert register("from-elsewhere", addr="10.0.0.2").status_code == 302


def test_registrations_refused_for_a_mistake_do_not_use_up_the_limit():
    for _ in range(REGISTRATIONS_PER_ADDRESS + 2):
        response = register("careless", password2="typo")
        assert response.status_code == 200 and LIMITED not in response.content.decode()
    assert register("careless").status_code == 302
    assert usernames() == {"careless"}


@pytest.mark.django_db(transaction=True)  # each thread registers on its own connection
def test_parallel_registrations_from_one_address_create_at_most_the_limit(redis_cache):
    attempts = 20
    barrier = threading.Barrier(attempts)

    def attempt(i: int) -> int:
        try:
            barrier.wait()  # all at once, as the flood did
            return register(f"flood{i}").status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=attempts) as pool:
        statuses = list(pool.map(attempt, range(attempts)))

    assert sorted(statuses) == [200] * (attempts - REGISTRATIONS_PER_ADDRESS) + [302] * (
        REGISTRATIONS_PER_ADDRESS
    )
    assert len(usernames()) == REGISTRATIONS_PER_ADDRESS


# ---------------------------------------------------------------- look-alike usernames


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("b\u043eb", "looks too much like the existing username bob"),  # Cyrillic о
        ("B\u041eB", "looks too much like the existing username bob"),  # and upper case
        ("\uff42\uff4f\uff42", "A user with that username already exists"),  # full-width
    ],
)
def test_a_look_alike_of_an_existing_username_is_refused_and_creates_nothing(username, message):
    assert register("bob").status_code == 302
    response = register(username, addr="10.0.0.2")
    assert response.status_code == 200
    assert message in response.content.decode()
    assert usernames() == {"bob"}


def test_a_new_username_is_stored_in_nfkc():
    assert register("\uff44\uff57\uff41\uff52\uff46").status_code == 302  # full-width
    assert usernames() == {"dwarf"}
