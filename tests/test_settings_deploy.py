"""Production mode: ``DJANGO_HTTPS=1`` must satisfy ``manage.py check --deploy``.

The check runs in a subprocess because settings are read once, at start-up, from the
environment; that is exactly what a production server does.
"""

from __future__ import annotations

import importlib
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

import thud_site.settings as site_settings

BASE_DIR = Path(__file__).resolve().parent.parent
PRODUCTION_VARIABLES = (
    "DJANGO_HTTPS",
    "DJANGO_HSTS_SECONDS",
    "DJANGO_HSTS_INCLUDE_SUBDOMAINS",
    "DJANGO_HSTS_PRELOAD",
    "DJANGO_SECURE_PROXY_SSL_HEADER",
    "CSRF_TRUSTED_ORIGINS",
)


def deploy_check(**env: str) -> subprocess.CompletedProcess[str]:
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process (Playwright's loop);
    # a production server never has it, and check --deploy rightly refuses it.
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in PRODUCTION_VARIABLES and k != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    # A production-like key and no debug, so only the HTTPS settings are under test.
    environment |= {"DJANGO_SECRET_KEY": secrets.token_urlsafe(64), "DJANGO_DEBUG": "0"}
    environment |= env
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_https_mode_passes_the_deploy_check_cleanly():
    result = deploy_check(DJANGO_HTTPS="1")
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_without_https_mode_the_deploy_check_warns():
    result = deploy_check()
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr


@pytest.fixture
def reload_settings(monkeypatch):
    """Re-read thud_site/settings.py under a changed environment, then restore it."""

    def reload(**env: str):
        for name in PRODUCTION_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("DJANGO_SECRET_KEY", "x")
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return importlib.reload(site_settings)

    yield reload
    monkeypatch.undo()
    importlib.reload(site_settings)


def test_https_mode_sets_secure_cookies_redirect_and_hsts(reload_settings):
    s = reload_settings(DJANGO_HTTPS="1", DJANGO_HSTS_SECONDS="3600")
    assert s.SECURE_SSL_REDIRECT and s.SESSION_COOKIE_SECURE and s.CSRF_COOKIE_SECURE
    assert s.SECURE_HSTS_SECONDS == 3600
    off = reload_settings()
    assert not (off.SECURE_SSL_REDIRECT or off.SESSION_COOKIE_SECURE or off.CSRF_COOKIE_SECURE)
    assert off.SECURE_HSTS_SECONDS == 0


def test_proxy_ssl_header_and_csrf_origins_come_from_the_environment(reload_settings):
    s = reload_settings(
        DJANGO_SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO",
        CSRF_TRUSTED_ORIGINS="https://thud.example.org, https://*.example.net",
    )
    assert s.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    assert s.CSRF_TRUSTED_ORIGINS == ["https://thud.example.org", "https://*.example.net"]
    custom = reload_settings(DJANGO_SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_SSL=on")
    assert custom.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_SSL", "on")
    unset = reload_settings()
    assert unset.SECURE_PROXY_SSL_HEADER is None and unset.CSRF_TRUSTED_ORIGINS == []
