"""The one crawler of the suite: the pages a client reaches from ``/`` by following links.

Breadth first, within the site, GET only; never ``/admin/`` (not ours) nor an event stream
(it never ends). Used by the crawl that checks every page renders
(``tests/thud_site/test_crawl.py``, ``test_cache.py``) and by the axe crawl
(``tests/browser/test_accessibility_browser.py``), which keeps only a few URLs per Django
URL name and never fetches a download.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.test import Client
from django.urls import Resolver404, resolve

MAX_PAGES = 250  # a runaway crawl stops here
DOWNLOADS = (".pdf", ".csv", ".txt", ".json")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


@dataclass
class Crawl:
    statuses: dict[str, int] = field(default_factory=dict)  # every URL fetched, in order
    pages: list[str] = field(default_factory=list)  # those that answered 200 with HTML


def view_name(path: str) -> str:
    try:
        return resolve(urlsplit(path).path).view_name
    except Resolver404:
        return path


def same_site_path(base: str, href: str, *, downloads: bool = True) -> str | None:
    """The path (and query) of a link worth following from ``base``, or None."""
    target = urlsplit(urljoin(base, href))
    if target.scheme not in ("http", "https", "") or target.netloc not in ("", "testserver"):
        return None
    path = target.path + (f"?{target.query}" if target.query else "")
    if path.startswith("/admin/") or target.path.endswith("/events/"):
        return None
    if not downloads and target.path.endswith(DOWNLOADS):
        return None
    return path


def crawl(client: Client, *, per_view: int | None = None, downloads: bool = True) -> Crawl:
    """Every URL reached from ``/``; with ``per_view``, at most that many per URL name;
    without ``downloads``, no PDF, CSV, text or JSON is fetched."""
    found = Crawl()
    seen: set[str] = {"/"}
    per_name: Counter[str] = Counter()
    queue = deque(["/"])
    while queue and len(found.statuses) < MAX_PAGES:
        url = queue.popleft()
        response = client.get(url)
        found.statuses[url] = response.status_code
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        found.pages.append(url)
        parser = Links()
        parser.feed(response.content.decode())
        for href in parser.hrefs:
            path = same_site_path(url, href, downloads=downloads)
            if path is None or path in seen:
                continue
            seen.add(path)
            if per_view is not None:
                name = view_name(path)
                if per_name[name] >= per_view:
                    continue
                per_name[name] += 1
            queue.append(path)
    return found
