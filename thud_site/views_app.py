"""The installable app shell: the web app manifest and the service worker.

Both are served from the site root, so the worker's scope covers every page. The worker
(``templates/app/sw.js``) keeps the static assets cache-first, under a cache named by a
hash of their contents (a changed file makes a new cache and drops the old one), and the
pages a person opened network-first, falling back to the saved copy when the network is
gone; it never caches a POST, an API call or a stream, and it empties the saved pages when
someone logs in or out (on this site or in the admin). The admin's and the account pages,
and any answer that says ``no-store`` (a personal-link page), are never saved.

A shared device keeps nothing of the last person (``thud_site/offline.py``): the pages
saved and the entries queued go when a page shows that nobody is logged in any more (a
log-out by any route, or a session that ended).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .offline import SAVED_PAGES

#: What every page loads: kept by the worker when it installs.
SHELL_ASSETS = (
    "css/site.css",
    "css/charts.css",
    "js/site.js",
    "js/offline.js",
    "favicon.svg",
    "django_htmx/htmx-2.min.js",
)


@cache
def shell_version() -> str:
    """A hash of the shell assets' contents: the name of the worker's static cache."""
    digest = hashlib.sha256()
    for path in SHELL_ASSETS:
        found = finders.find(path)
        assert isinstance(found, str), path  # every shell asset exists
        with open(found, "rb") as file:
            digest.update(file.read())
    return digest.hexdigest()[:12]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    config = {
        "version": shell_version(),
        "assets": [static(path) for path in SHELL_ASSETS],
        "staticPrefix": static(""),
        "catalog": reverse("javascript-catalog"),
        "pages": SAVED_PAGES,
        "clearOn": [
            reverse("login"),
            reverse("logout"),
            reverse("admin:login"),
            reverse("admin:logout"),
        ],
        # Never saved: the admin, and the account pages (log-in, password-reset links).
        "private": [reverse("admin:index"), reverse("login").rsplit("/", 2)[0] + "/"],
    }
    # JSON is valid JavaScript; the worker is a script file, not HTML, so nothing is escaped.
    context = {"config": json.dumps(config)}
    response = render(request, "app/sw.js", context, content_type="text/javascript")
    # Browsers check the worker for updates; never let a proxy keep an old one.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    body = {
        "name": _("Thud Tournament Manager"),
        "short_name": _("Thud"),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#7a4b1c",
        "icons": [
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icon-512.png"), "sizes": "512x512", "type": "image/png"},
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    return response
