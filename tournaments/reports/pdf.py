"""PDF downloads: a Django template rendered to PDF by WeasyPrint.

WeasyPrint lays out the same HTML and CSS as the printable pages (``static/css/print.css``
is shared, ``@media print`` applies), so a PDF looks like the browser's print of that page.

Resources: the document's base URL is the site's root, and its only resources are our own
static files, read from disk (the staticfiles finders, or ``STATIC_ROOT`` after
``collectstatic``) rather than fetched over HTTP — a request to ourselves would wait for a
worker while holding one, and a fetcher that can reach the network is a server-side
request forgery waiting for a user-controlled URL. Any other URL is refused.
"""

from __future__ import annotations

import functools
import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest
from django.template.loader import render_to_string


def static_file(url_path: str) -> Path | None:
    """The file behind a ``STATIC_URL`` path, or None.

    >>> static_file("/static/css/print.css").name
    'print.css'
    >>> static_file("/static/../settings.py") is None, static_file("/media/x") is None
    (True, True)
    >>> static_file("/static//etc/passwd") is None, static_file("/static/%2Fetc/passwd") is None
    (True, True)
    """
    prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    if not url_path.startswith(prefix):
        return None
    relative = unquote(url_path.removeprefix(prefix))
    # A relative path inside the static files, and nothing else: no "..", no absolute
    # path ("/static//etc/passwd"), no drive or backslash, no NUL.
    if (
        ".." in Path(relative).parts
        or Path(relative).is_absolute()
        or relative.startswith(("/", "\\"))
        or "\\" in relative
        or ":" in relative
        or "\x00" in relative
    ):
        return None
    found = finders.find(relative)
    if found:
        return Path(found)
    if settings.STATIC_ROOT:
        collected = Path(settings.STATIC_ROOT) / relative
        if collected.is_file():
            return collected
    return None


# WeasyPrint costs ~3.4 s of imports: it is loaded with the first PDF, not by every web and
# worker process when it starts (deliberate function-level imports of a third-party library).


@functools.cache
def _fetcher_class() -> type:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFilesFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            path = static_file(urlsplit(url).path)
            if path is None:
                raise ValueError(f"Only static files are available to PDFs: {url}")
            content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    return StaticFilesFetcher


def static_files_fetcher():
    """A WeasyPrint URL fetcher that serves our static files from disk and refuses every
    other URL."""
    return _fetcher_class()()


def render_pdf(request: HttpRequest, template_name: str, context: dict) -> bytes:
    """``template_name`` rendered with ``context`` (in the active language) as PDF bytes."""
    from weasyprint import HTML

    html = render_to_string(template_name, context, request=request)
    document = HTML(
        string=html,
        base_url=request.build_absolute_uri("/"),
        url_fetcher=static_files_fetcher(),
    )
    return document.write_pdf()
