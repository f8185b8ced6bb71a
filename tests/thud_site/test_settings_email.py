"""Outgoing mail is configured from the environment, with a timeout by default."""

from __future__ import annotations

import importlib

import pytest
from django.core.exceptions import ImproperlyConfigured

import thud_site.settings as site_settings

MAIL_VARIABLES = (
    "EMAIL_BACKEND",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "EMAIL_TIMEOUT",
    "DEFAULT_FROM_EMAIL",
)


@pytest.fixture
def reload_settings(monkeypatch):
    def reload(**env: str):
        for name in MAIL_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("DJANGO_SECRET_KEY", "x")
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return importlib.reload(site_settings)

    yield reload
    monkeypatch.undo()
    importlib.reload(site_settings)


def test_an_smtp_server_gets_10_seconds_unless_told_otherwise(reload_settings):
    s = reload_settings()
    assert s.EMAIL_TIMEOUT == 10
    assert (s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL) == (
        "localhost",
        25,
        False,
        False,
    )


def test_every_mail_setting_comes_from_the_environment(reload_settings):
    s = reload_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="587",
        EMAIL_HOST_USER="thud",
        EMAIL_HOST_PASSWORD="secret",
        EMAIL_USE_TLS="1",
        EMAIL_TIMEOUT="2.5",
        DEFAULT_FROM_EMAIL="Thud <noreply@example.org>",
    )
    assert s.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
    assert (s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD) == (
        "smtp.example.org",
        587,
        "thud",
        "secret",
    )
    assert s.EMAIL_USE_TLS and not s.EMAIL_USE_SSL
    assert s.EMAIL_TIMEOUT == 2.5 and s.DEFAULT_FROM_EMAIL == "Thud <noreply@example.org>"
    assert reload_settings(EMAIL_USE_SSL="true", EMAIL_PORT="465").EMAIL_USE_SSL


def test_tls_and_ssl_together_are_refused_at_start_up(reload_settings):
    with pytest.raises(ImproperlyConfigured):
        reload_settings(EMAIL_USE_TLS="1", EMAIL_USE_SSL="1")
