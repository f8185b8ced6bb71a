"""thud_site/sessions.py: Django's database sessions, read by a prepared query, with
Django's answers: a live session's data, nothing for an expired or unknown one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from thud_site.sessions import SessionStore

pytestmark = pytest.mark.django_db


def _saved(**data) -> str:
    store = SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def test_the_site_uses_it():
    assert settings.SESSION_ENGINE == "thud_site.sessions"


def test_a_live_session_is_read_in_one_query(django_assert_num_queries):
    key = _saved(who="referee")
    with django_assert_num_queries(1):
        store = SessionStore(key)
        assert store["who"] == "referee"
    assert store.session_key == key


def test_each_key_reads_its_own_session():
    keys = [_saved(who=name) for name in ("a", "b")]
    assert [SessionStore(key)["who"] for key in reversed(keys)] == ["b", "a"]


def test_an_expired_session_is_not_read_and_its_key_is_dropped():
    key = _saved(who="referee")
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    store = SessionStore(key)
    assert "who" not in store
    assert store.session_key is None


def test_an_unknown_key_reads_nothing():
    store = SessionStore("x" * 32)
    assert store.load() == {}
    assert store.session_key is None


def test_no_key_reads_nothing_not_a_session_keyed_none():
    key = _saved(who="referee")
    Session.objects.filter(session_key=key).update(session_key="None")
    assert SessionStore().load() == {}


def test_a_signed_in_client_stays_signed_in_and_a_logout_ends_it(client, django_user_model):
    user = django_user_model.objects.create_user("someone", password="pw-long-enough-1")
    assert client.login(username="someone", password="pw-long-enough-1")
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert SessionStore(key)["_auth_user_id"] == str(user.pk)
    client.logout()
    assert SessionStore(key).load() == {}
