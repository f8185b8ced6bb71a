"""The installable app shell's two files, served from the site root."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tests.factories import UserFactory
from thud_site.offline import QUEUED_BY, SAVED_PAGES, queue_owner
from thud_site.views_app import SHELL_ASSETS, shell_version


def test_service_worker_is_a_script_at_the_root_naming_its_assets_and_version(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/javascript")
    assert r["Cache-Control"] == "no-cache"
    config = json.loads(re.search(r"var CONFIG = (\{.*\});", r.text)[1])
    assert config["version"] == shell_version() and len(config["version"]) == 12
    assert config["assets"] == [f"/static/{path}" for path in SHELL_ASSETS]
    assert config["pages"] == SAVED_PAGES
    # Logging in or out, on the site or in the admin, empties the saved pages.
    assert config["clearOn"] == [
        reverse("login"),
        reverse("logout"),
        reverse("admin:login"),
        reverse("admin:logout"),
    ]
    assert config["private"] == ["/admin/", "/accounts/"]


def test_manifest_names_the_app_its_start_and_icons(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/manifest+json"
    body = r.json()
    assert body["start_url"] == "/" and body["display"] == "standalone"
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes
    for icon in body["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_loads_the_offline_script(client):
    page = client.get(reverse("home")).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "js/offline.js" in page and 'data-service-worker="/sw.js"' in page


def test_manifest_speaks_the_visitors_language(client):
    body = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="it").json()
    assert body["name"] == "Gestione tornei di Thud"


def _owner_on(page: str) -> str:
    return re.search(r'data-offline-user="([^"]*)"', page)[1]


@pytest.mark.django_db
def test_every_page_names_its_person_opaquely_and_nobody_as_empty(client):
    assert _owner_on(client.get(reverse("home")).text) == ""
    one, two = UserFactory(username="shared-one"), UserFactory(username="shared-two")
    client.force_login(one)
    page = client.get(reverse("home")).text
    assert _owner_on(page) == queue_owner(one) != ""
    assert f'data-saved-pages="{SAVED_PAGES}"' in page
    assert "shared-one" not in queue_owner(one) and str(one.pk) != queue_owner(one)
    client.force_login(two)
    assert _owner_on(client.get(reverse("home")).text) == queue_owner(two) != queue_owner(one)


@pytest.mark.django_db
def test_an_entry_queued_by_someone_else_is_refused_before_any_view(client):
    """Sent by a session that is not its person's (another person logged in since), a
    queued entry is refused with 403 and changes nothing; its own person's goes through."""
    one, two = UserFactory(), UserFactory()
    client.force_login(two)
    refused = client.post(reverse("logout"), headers={QUEUED_BY: queue_owner(one)})
    assert refused.status_code == 403
    assert client.get(reverse("home")).context["user"] == two  # still logged in: no view ran
    assert client.post(reverse("logout"), headers={QUEUED_BY: queue_owner(two)}).status_code == 302
    # Nobody logged in: the view answers (a log-in page tells the page the session ended).
    client.logout()
    assert client.post(reverse("logout"), headers={QUEUED_BY: queue_owner(one)}).status_code == 302


@pytest.mark.django_db
def test_the_admins_log_out_lands_on_a_site_page_which_empties_the_device(client):
    """/admin/logout/ answers with the site's home page, a live page with nobody logged in,
    on which static/js/offline.js empties the queue and the saved pages (in chromium:
    tests/browser/test_offline_browser.py)."""
    client.force_login(UserFactory(is_staff=True))
    response = client.post(reverse("admin:logout"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert _owner_on(response.text) == ""
