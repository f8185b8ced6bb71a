"""The installable app shell's two files, served from the site root."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from thud_site.views_app import SHELL_ASSETS, shell_version


def test_service_worker_is_a_script_at_the_root_naming_its_assets_and_version(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/javascript")
    assert r["Cache-Control"] == "no-cache"
    config = json.loads(re.search(r"var CONFIG = (\{.*\});", r.text)[1])
    assert config["version"] == shell_version() and len(config["version"]) == 12
    assert config["assets"] == [f"/static/{path}" for path in SHELL_ASSETS]
    assert config["clearOn"] == [reverse("login"), reverse("logout")]
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
