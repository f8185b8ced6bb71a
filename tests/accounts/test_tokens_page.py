"""The account's personal access tokens page (accounts/views_tokens.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts import token_auth, tokens
from accounts.models import PersonalAccessToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PAGE = reverse("access_tokens")


@pytest.fixture
def user_client(client):
    user = UserFactory()
    client.force_login(user)
    client.user = user
    return client


def shown_token(response) -> str | None:
    plain = re.search(r'value="(thud_[A-Za-z0-9_-]+)"', response.content.decode())
    return plain.group(1) if plain else None


def test_anonymous_is_sent_to_log_in(client):
    response = client.get(PAGE)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    revoke = client.post(reverse("revoke_access_token", args=[1]), {"confirm": "1"})
    assert revoke.status_code == 302 and revoke["Location"].startswith(reverse("login"))


def test_the_page_renders_and_the_settings_page_links_to_it(user_client):
    response = user_client.get(PAGE)
    assert response.status_code == 200
    assert "Personal access tokens" in response.content.decode()
    assert "You have no tokens yet." in response.content.decode()
    assert PAGE in user_client.get(reverse("play:settings")).content.decode()


def test_a_new_token_is_shown_once_and_only_its_hash_is_kept(user_client):
    response = user_client.post(PAGE, {"name": "club bot", "scopes": ["read", "bot"]})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    plain = shown_token(response)
    assert plain is not None
    token = PersonalAccessToken.objects.get(user=user_client.user)
    assert (token.name, token.scopes) == ("club bot", ["read", "bot"])
    assert token.token_hash == tokens.hash_token(plain)
    again = user_client.get(PAGE).content.decode()
    assert plain not in again  # never shown again
    assert token.prefix in again and "club bot" in again
    assert "<code>read</code>, <code>bot</code>" in again


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"scopes": ["read"]}, "Give the token a name."),
        ({"name": "   ", "scopes": ["read"]}, "Give the token a name."),
        ({"name": "laptop"}, "Choose at least one scope."),
        ({"name": "laptop", "scopes": ["read", "sudo"]}, "Select a valid choice. sudo"),
        ({"name": "x" * 61, "scopes": ["read"]}, "at most 60 characters"),
    ],
)
def test_bad_input_says_why_and_makes_nothing(user_client, data, message):
    response = user_client.post(PAGE, data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert shown_token(response) is None
    assert not PersonalAccessToken.objects.exists()


def test_past_the_cap_the_page_says_so(user_client, monkeypatch):
    monkeypatch.setattr(tokens, "LIVE_TOKENS_MAX", 1)
    user_client.post(PAGE, {"name": "one", "scopes": ["read"]})
    response = user_client.post(PAGE, {"name": "two", "scopes": ["read"]})
    assert "You have 1 tokens already" in response.content.decode()
    assert PersonalAccessToken.objects.count() == 1


def make(user, name="laptop"):
    return tokens.make_token(user, name=name, scopes=["read"], now=tokens_now())


def tokens_now():
    return timezone.now()


def test_revoke_asks_first_without_javascript_and_changes_nothing(user_client):
    new = make(user_client.user, "laptop")
    url = reverse("revoke_access_token", args=[new.token.pk])
    response = user_client.post(url)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Revoke the token “laptop”" in page and 'name="confirm" value="1"' in page
    new.token.refresh_from_db()
    assert new.token.revoked_at is None


def test_revoke_with_the_answer_revokes(user_client):
    new = make(user_client.user, "laptop")
    url = reverse("revoke_access_token", args=[new.token.pk])
    response = user_client.post(url, {"confirm": "1"}, follow=True)
    assert "The token “laptop” is revoked" in response.content.decode()
    new.token.refresh_from_db()
    assert new.token.revoked_at is not None
    assert "revoked" in response.content.decode()
    assert tokens.authenticate(new.plain, now=tokens_now()) is None
    again = user_client.post(url, {"confirm": "1"}, follow=True)
    assert "This token is already revoked." in again.content.decode()


def test_the_page_asks_before_revoking(user_client):
    make(user_client.user, "laptop")
    page = user_client.get(PAGE).content.decode()
    assert 'data-confirm="Revoke the token “laptop”' in page


def test_someone_elses_token_is_a_404_and_stays(user_client):
    other = make(UserFactory(), "theirs")
    url = reverse("revoke_access_token", args=[other.token.pk])
    assert user_client.post(url, {"confirm": "1"}).status_code == 404
    assert user_client.post(url).status_code == 404
    other.token.refresh_from_db()
    assert other.token.revoked_at is None
    assert "theirs" not in user_client.get(PAGE).content.decode()


def test_revoking_is_a_post(user_client):
    new = make(user_client.user)
    assert user_client.get(reverse("revoke_access_token", args=[new.token.pk])).status_code == 405


def test_a_flooding_token_leaves_the_pages_alone(user_client, monkeypatch):
    monkeypatch.setattr(token_auth, "RATE_LIMIT", 1)
    new, now = make(user_client.user), tokens_now()
    request = RequestFactory().get("/api/", headers={"Authorization": f"Bearer {new.plain}"})
    token_auth.token_user(request, "read", now=now)
    with pytest.raises(token_auth.RateLimited):
        token_auth.token_user(request, "read", now=now)
    assert user_client.get(PAGE).status_code == 200  # its owner's pages
    client = Client()
    client.force_login(UserFactory())
    assert client.get(PAGE).status_code == 200  # and everyone else's
    assert client.get(reverse("play:settings")).status_code == 200


def test_the_admin_lists_tokens_and_revokes_them_but_makes_none(admin_client):
    new = make(UserFactory(), "leaked")
    changelist = reverse("admin:accounts_personalaccesstoken_changelist")
    page = admin_client.get(changelist).content.decode()
    assert "leaked" in page and new.token.prefix in page and new.token.token_hash not in page
    assert admin_client.get(reverse("admin:accounts_personalaccesstoken_add")).status_code == 403
    admin_client.post(
        changelist, {"action": "revoke", "_selected_action": [new.token.pk]}, follow=True
    )
    new.token.refresh_from_db()
    assert new.token.revoked_at is not None
