"""Playwright (sync API) driving Debian's chromium against pytest-django's live_server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connections
from django.test import Client

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# from here are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "browser"


# Function scope on purpose: Playwright's sync API runs an event loop in this thread
# while it is started, and a session-long one would break later tests that call
# asyncio.run() (test order is random).
@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"chromium not found at {CHROMIUM} (make test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()
        # ORM calls the test made while Playwright's loop ran used their own connection
        # context: close it here, or it outlives the test and blocks dropping the test
        # database at the end of the run.
        connections.close_all()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    return take


@pytest.fixture
def demo(transactional_db):
    """The demo data (``load_demo``: organiser, referee1, player1 …) and a site administrator."""
    call_command("load_demo", verbosity=0)
    get_user_model().objects.create_user(
        "siteadmin", "siteadmin@example.org", is_staff=True, is_superuser=True
    )


@pytest.fixture
def log_in(live_server):
    """Log a browser context in as ``username`` (None: stay anonymous) by giving it the
    session cookie of a test client that force-logged in; no login form, no password."""

    def log_in(context, username: str | None) -> None:
        if username is None:
            return
        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        name = settings.SESSION_COOKIE_NAME
        context.add_cookies(
            [{"name": name, "value": client.cookies[name].value, "url": live_server.url}]
        )

    return log_in
