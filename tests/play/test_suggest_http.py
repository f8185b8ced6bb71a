"""Username suggestions for the challenge form (``play.suggest`` behind ``/play/users/``):
only active users other than the asker, names starting with the text first, at most ten;
a clear JSON error for bad text, no login or too many look-ups, and nothing changed."""

from __future__ import annotations

import json
import os
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.bots import moves as bots
from play import suggest
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = reverse("play:users")


@pytest.fixture(autouse=True)
def redis_limits(settings):
    """The real Redis behind the limits, a key prefix of this test's own."""
    prefix = os.environ.get("THUD_CACHE_PREFIX", "thud")
    settings.CACHES = settings.CACHES | {
        "limits": {
            "BACKEND": "thud_site.cache.ResilientRedisCache",
            "LOCATION": settings.REDIS_URL,
            "KEY_PREFIX": f"{prefix}-test-suggest-{uuid.uuid4().hex}",
            "OPTIONS": {"fallback": "local"},
        }
    }


@pytest.fixture
def alice(client):
    user = UserFactory(username="alice")
    client.force_login(user)
    return user


def ask(client, q, **extra):
    r = client.get(URL, {"q": q}, **extra)
    assert r["Content-Type"] == "application/json"
    return r.status_code, json.loads(r.content)


def test_names_containing_the_text_those_starting_with_it_first(client, alice):
    for name in ("zagreus", "Agnes", "agatha", "bob", "magda"):
        UserFactory(username=name)
    assert ask(client, "ag") == (200, {"users": ["agatha", "Agnes", "magda", "zagreus"]})
    assert ask(client, "AG ")[1]["users"][:2] == ["agatha", "Agnes"]  # any case, stripped


def test_never_the_asker_an_inactive_user_or_the_computer(client, alice):
    UserFactory(username="alicia")
    UserFactory(username="alina", is_active=False)
    bots.computer_user()
    assert ask(client, "ali") == (200, {"users": ["alicia"]})
    assert ask(client, "computer") == (200, {"users": []})


def test_at_most_ten_names(client, alice):
    for n in range(12):
        UserFactory(username=f"player{n:02d}")
    status, data = ask(client, "player")
    assert status == 200 and data["users"] == [f"player{n:02d}" for n in range(10)]


def test_an_empty_text_asks_for_nothing(client, alice):
    UserFactory(username="bob")
    assert ask(client, "") == (200, {"users": []})
    assert ask(client, "   ") == (200, {"users": []})
    r = client.get(URL)
    assert r.status_code == 200 and json.loads(r.content) == {"users": []}


@pytest.mark.parametrize("q", ["x" * 151, "al\x00ice"])
def test_text_no_username_can_hold_is_a_400_saying_why(client, alice, q):
    users = get_user_model().objects.count()
    status, data = ask(client, q)
    assert status == 400 and set(data) == {"error"} and data["error"]
    assert get_user_model().objects.count() == users


def test_only_a_logged_in_user_may_ask_and_only_by_get(client, alice):
    assert client.post(URL, {"q": "al"}).status_code == 405
    client.logout()
    status, data = ask(client, "al")
    assert status == 403 and data == {"error": "Log in to look up players."}


def test_beyond_the_limit_a_minute_the_answer_is_429_for_that_user_only(client, alice):
    UserFactory(username="bob")
    for _ in range(suggest.LIMIT):
        assert ask(client, "bo") == (200, {"users": ["bob"]})
    status, data = ask(client, "bo")
    assert status == 429 and data == {"error": "Too many look-ups: wait a minute and try again."}
    client.force_login(UserFactory(username="carol"))
    assert ask(client, "bo") == (200, {"users": ["bob"]})


def test_the_challenge_form_names_the_suggestions_url_on_the_username_field(client, alice):
    page = client.get(reverse("play:start")).content.decode()
    assert f'data-suggest-url="{URL}"' in page and 'name="username"' in page
