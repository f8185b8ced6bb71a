"""Every page a role can reach from ``/`` by following links renders without a 500.

A breadth-first crawl per role over the demo tournament (``load_demo``): the public,
the organiser, a referee and a player. Links are followed only within the site and only
by GET (forms are exercised by their own tests); downloads and the live event stream are
fetched but not parsed.
"""

from __future__ import annotations

from collections import deque
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db
MAX_PAGES = 250


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def crawl(client) -> dict[str, int]:
    seen: dict[str, int] = {}
    queue = deque(["/"])
    while queue and len(seen) < MAX_PAGES:
        url = queue.popleft()
        if url in seen:
            continue
        response = client.get(url)
        seen[url] = response.status_code
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        parser = Links()
        parser.feed(response.content.decode())
        for href in parser.hrefs:
            target = urlsplit(urljoin(url, href))
            if target.scheme in ("http", "https") and target.netloc not in ("", "testserver"):
                continue
            path = target.path + (f"?{target.query}" if target.query else "")
            if path.startswith("/admin/") or path.endswith("/events/"):
                continue
            if path not in seen:
                queue.append(path)
    return seen


@pytest.fixture
def demo(db):
    call_command("load_demo", verbosity=0)


@pytest.mark.parametrize("username", [None, "organiser", "referee1", "player1"])
def test_every_reachable_page_renders_for_each_role(client, demo, username):
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    seen = crawl(client)
    errors = {url: status for url, status in seen.items() if status >= 500}
    assert errors == {}
    assert len(seen) > 5, seen  # the crawl went somewhere
    missing = {url: s for url, s in seen.items() if s == 404}
    assert missing == {}, "a link leads nowhere"
