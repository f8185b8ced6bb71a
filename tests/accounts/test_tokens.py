"""Personal access tokens' domain (accounts/tokens.py): made, hashed, recognised, revoked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from accounts import tokens
from accounts.models import PersonalAccessToken, TokenScope
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def make(user=None, *, name="laptop", scopes=("read",), now=NOW) -> tokens.NewToken:
    return tokens.make_token(user or UserFactory(), name=name, scopes=scopes, now=now)


def test_the_database_never_holds_the_plain_token():
    new = make()
    row = PersonalAccessToken.objects.get(pk=new.token.pk)
    assert new.plain.startswith("thud_") and len(new.plain) == 5 + 43
    assert row.token_hash == tokens.hash_token(new.plain) != new.plain
    assert row.prefix == new.plain[:13]
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_personalaccesstoken")
        stored = [str(v) for row in cursor.fetchall() for v in row]
    assert not any(new.plain in value for value in stored)


def test_the_plain_token_is_only_in_makes_answer():
    new = make()
    again = PersonalAccessToken.objects.get(pk=new.token.pk)
    assert not any(
        new.plain in str(getattr(again, f.attname)) for f in PersonalAccessToken._meta.fields
    )


def test_two_tokens_differ():
    user = UserFactory()
    assert make(user).plain != make(user).plain


def test_scopes_are_kept_in_the_lists_order_without_repeats():
    new = make(scopes=["tournament:admin", "read", "read"])
    assert new.token.scopes == ["read", "tournament:admin"]
    assert tokens.has_scope(new.token, TokenScope.READ)
    assert tokens.has_scope(new.token, TokenScope.TOURNAMENT_ADMIN)
    assert not tokens.has_scope(new.token, TokenScope.PLAY)


@pytest.mark.parametrize(
    ("name", "scopes", "message"),
    [
        ("", ["read"], "Give the token a name."),
        ("   ", ["read"], "Give the token a name."),
        ("x" * 61, ["read"], "at most 60 characters"),
        ("laptop", [], "Choose at least one scope."),
        ("laptop", ["read", "admin"], "Unknown scope: admin."),
    ],
)
def test_bad_input_makes_no_token(name, scopes, message):
    user = UserFactory()
    with pytest.raises(tokens.TokenError, match=message):
        make(user, name=name, scopes=scopes)
    assert not PersonalAccessToken.objects.exists()


def test_a_user_holds_at_most_twenty_live_tokens():
    user = UserFactory()
    made = [make(user) for _ in range(tokens.LIVE_TOKENS_MAX)]
    with pytest.raises(tokens.TokenError, match="revoke one"):
        make(user)
    assert PersonalAccessToken.objects.count() == tokens.LIVE_TOKENS_MAX
    make(UserFactory())  # another user's cap is their own
    tokens.revoke(user, made[0].token.pk, now=NOW)
    make(user)  # a revoked token leaves room


def test_authenticate_answers_the_token_and_its_user():
    new = make()
    token = tokens.authenticate(new.plain, now=NOW)
    assert token == new.token and token.user == new.token.user


@pytest.mark.parametrize(
    "plain", ["", "thud_", "thud_nope", "nothud_abc", "thud_" + "x" * 200, "Bearer thud_x"]
)
def test_authenticate_refuses_what_is_not_a_token(plain):
    make()
    assert tokens.authenticate(plain, now=NOW) is None


def test_authenticate_refuses_a_near_miss():
    new = make()
    last = "A" if new.plain[-1] != "A" else "B"
    assert tokens.authenticate(new.plain[:-1] + last, now=NOW) is None


def test_a_revoked_token_is_refused():
    new = make()
    tokens.revoke(new.token.user, new.token.pk, now=NOW)
    assert tokens.authenticate(new.plain, now=NOW + timedelta(seconds=1)) is None


def test_an_inactive_users_token_is_refused():
    new = make()
    new.token.user.is_active = False
    new.token.user.save()
    assert tokens.authenticate(new.plain, now=NOW) is None


def test_last_used_is_written_at_most_once_a_minute(django_assert_num_queries):
    new = make()
    assert new.token.last_used_at is None
    with django_assert_num_queries(2):  # the look-up, the first use noted
        tokens.authenticate(new.plain, now=NOW)
    with django_assert_num_queries(1):  # 59 s later: the look-up only
        tokens.authenticate(new.plain, now=NOW + timedelta(seconds=59))
    new.token.refresh_from_db()
    assert new.token.last_used_at == NOW
    tokens.authenticate(new.plain, now=NOW + timedelta(seconds=60))
    new.token.refresh_from_db()
    assert new.token.last_used_at == NOW + timedelta(seconds=60)


def test_revoke_stamps_the_time_once():
    new = make()
    user = new.token.user
    tokens.revoke(user, new.token.pk, now=NOW)
    with pytest.raises(tokens.TokenError, match="already revoked"):
        tokens.revoke(user, new.token.pk, now=NOW + timedelta(hours=1))
    new.token.refresh_from_db()
    assert new.token.revoked_at == NOW


def test_someone_elses_token_cannot_be_revoked():
    new = make()
    with pytest.raises(tokens.NoSuchToken):
        tokens.revoke(UserFactory(), new.token.pk, now=NOW)
    new.token.refresh_from_db()
    assert new.token.revoked_at is None
    assert tokens.authenticate(new.plain, now=NOW) is not None


def test_the_list_holds_the_users_tokens_newest_first_revoked_too():
    user = UserFactory()
    first = make(user, name="first")
    second = make(user, name="second", now=NOW + timedelta(minutes=1))
    make(name="another user's")
    tokens.revoke(user, first.token.pk, now=NOW)
    assert [t.name for t in tokens.tokens_of(user)] == ["second", "first"]
    assert list(tokens.live_tokens(user)) == [second.token]
