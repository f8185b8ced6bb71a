"""Every page a role can reach from ``/`` by following links renders without a 500.

A breadth-first crawl per role over the demo tournament (``load_demo``): the public,
the organiser, a referee and a player. Links are followed only within the site and only
by GET (forms are exercised by their own tests); downloads are fetched but not parsed, the
live event stream is never opened (the crawler is tests/crawler.py).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from tests.crawler import crawl

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db):
    call_command("load_demo", verbosity=0)


@pytest.mark.parametrize("username", [None, "organiser", "referee1", "player1"])
def test_every_reachable_page_renders_for_each_role(client, demo, username):
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    seen = crawl(client).statuses
    errors = {url: status for url, status in seen.items() if status >= 500}
    assert errors == {}
    assert len(seen) > 5, seen  # the crawl went somewhere
    missing = {url: s for url, s in seen.items() if s == 404}
    assert missing == {}, "a link leads nowhere"
    if username:  # the account's pages are reached too (the settings page links them)
        assert seen.get(reverse("access_tokens")) == 200
