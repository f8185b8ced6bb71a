"""A browser context logged in without a password: the session cookie of a test client."""

from __future__ import annotations

from django.test import Client


def session_cookie(user, base: str) -> dict:
    c = Client()
    c.force_login(user)
    return {"name": "sessionid", "value": c.cookies["sessionid"].value, "url": base}
