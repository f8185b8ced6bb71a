"""A request's token (accounts/token_auth.py): 401, 403 and 429, each a JSON error."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.test import RequestFactory

from accounts import token_auth, tokens
from accounts.models import PersonalAccessToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# 30 s into a minute's window: 30 s are left of it.
NOW = datetime(2026, 12, 4, 12, 0, 30, tzinfo=UTC)


def request_with(header: str | None):
    headers = {} if header is None else {"Authorization": header}
    return RequestFactory().get("/api/v1/anything", headers=headers)


def make(user=None, scopes=("read",)) -> tokens.NewToken:
    return tokens.make_token(user or UserFactory(), name="script", scopes=scopes, now=NOW)


def refusal(header: str | None, scope: str = "read", now=NOW) -> token_auth.TokenRefused:
    with pytest.raises(token_auth.TokenRefused) as caught:
        token_auth.token_user(request_with(header), scope, now=now)
    return caught.value


def test_a_bearer_token_with_the_scope_answers_its_user_and_token():
    new = make()
    user, token = token_auth.token_user(request_with(f"Bearer {new.plain}"), "read", now=NOW)
    assert (user, token) == (new.token.user, new.token)


def test_the_scheme_is_case_insensitive():
    new = make()
    assert token_auth.token_user(request_with(f"bearer {new.plain}"), "read", now=NOW)


@pytest.mark.parametrize(
    "header", [None, "", "Bearer", "Bearer   ", "Basic dXNlcjpwYXNz", "Token thud_x", "thud_x"]
)
def test_no_token_is_a_401(header):
    make()
    error = refusal(header)
    assert isinstance(error, token_auth.NotAuthenticated)
    response = error.response()
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert json.loads(response.content)["error"] == "unauthorized"


def test_an_unknown_token_is_a_401():
    make()
    assert refusal("Bearer thud_" + "x" * 43).status == 401


def test_a_revoked_token_is_a_401_and_nothing_is_noted():
    new = make()
    tokens.revoke(new.token.user, new.token.pk, now=NOW)
    error = refusal(f"Bearer {new.plain}", now=NOW + timedelta(minutes=5))
    assert error.status == 401
    assert "revoked" in json.loads(error.response().content)["detail"]
    new.token.refresh_from_db()
    assert new.token.last_used_at is None


def test_a_token_without_the_scope_is_a_403():
    new = make(scopes=["read"])
    error = refusal(f"Bearer {new.plain}", scope="play")
    assert isinstance(error, token_auth.ScopeMissing)
    response = error.response()
    assert response.status_code == 403
    body = json.loads(response.content)
    assert body["error"] == "forbidden" and "play" in body["detail"]


def test_a_flood_is_a_429_with_retry_after_and_other_tokens_go_on(monkeypatch):
    monkeypatch.setattr(token_auth, "RATE_LIMIT", 3)
    user = UserFactory()
    flooding, other_of_same_user, other_users = make(user), make(user), make()
    for _ in range(3):
        token_auth.token_user(request_with(f"Bearer {flooding.plain}"), "read", now=NOW)
    error = refusal(f"Bearer {flooding.plain}")
    assert isinstance(error, token_auth.RateLimited)
    response = error.response()
    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    assert json.loads(response.content) == {
        "error": "rate_limited",
        "detail": "Too many requests with this token: try again in 30 seconds.",
        "retry_after": 30,
    }
    # A refused request is counted too, and says how long is left of the window.
    assert refusal(f"Bearer {flooding.plain}", now=NOW + timedelta(seconds=20)).retry_after == 10
    for new in (other_of_same_user, other_users):
        assert token_auth.token_user(request_with(f"Bearer {new.plain}"), "read", now=NOW)
    # The next window lets the token in again.
    later = NOW + timedelta(seconds=30)
    assert token_auth.token_user(request_with(f"Bearer {flooding.plain}"), "read", now=later)


def test_a_flood_without_the_scope_is_counted_too(monkeypatch):
    monkeypatch.setattr(token_auth, "RATE_LIMIT", 2)
    new = make(scopes=["read"])
    assert refusal(f"Bearer {new.plain}", scope="play").status == 403
    assert refusal(f"Bearer {new.plain}", scope="play").status == 403
    assert refusal(f"Bearer {new.plain}", scope="read").status == 429


def test_a_refusal_changes_nothing():
    new = make(scopes=["read"])
    before = list(PersonalAccessToken.objects.values())
    refusal(f"Bearer {new.plain}x")
    refusal("Bearer thud_" + "y" * 43)
    assert list(PersonalAccessToken.objects.values()) == before


def test_only_a_request_let_through_notes_the_use(monkeypatch):
    monkeypatch.setattr(token_auth, "RATE_LIMIT", 1)
    new = make(scopes=["read"])
    assert refusal(f"Bearer {new.plain}", scope="play").status == 403
    assert refusal(f"Bearer {new.plain}", scope="read").status == 429
    new.token.refresh_from_db()
    assert new.token.last_used_at is None
    later = NOW + timedelta(minutes=1)
    token_auth.token_user(request_with(f"Bearer {new.plain}"), "read", now=later)
    new.token.refresh_from_db()
    assert new.token.last_used_at == later
