"""front/views.py: the JavaScript catalog, made once per language, 304 for a browser that
holds it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

from front import views


@pytest.fixture
def made_anew(monkeypatch):
    """Each test makes the catalogs anew (they are kept for the process)."""
    monkeypatch.setattr(views, "_catalogs", {})


def test_the_catalog_is_djangos_in_the_readers_language(client, rf, made_anew):
    for language in ("en", "it", "nb"):
        ours = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE=language)
        request = rf.get("/jsi18n/")
        with translation.override(language):
            djangos = JavaScriptCatalog.as_view()(request)
        assert ours.status_code == 200
        assert ours.content == djangos.content
        assert ours["Content-Type"] == djangos["Content-Type"]
        assert ours["Content-Language"] == language
        assert "Accept-Language" in ours["Vary"] and ours["Cache-Control"] == "no-cache"


def test_the_catalog_is_made_once_per_language(client, made_anew, monkeypatch):
    made = []
    django_view = views._catalog_view
    monkeypatch.setattr(views, "_catalog_view", lambda r: made.append(1) or django_view(r))
    url = reverse("javascript-catalog")
    first = [client.get(url, HTTP_ACCEPT_LANGUAGE="it").content for _ in range(3)]
    assert len(made) == 1 and len(set(first)) == 1
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content
    assert len(made) == 2 and english != first[0]


def test_a_browser_holding_the_catalog_is_answered_304_and_another_language_is_not(
    client, made_anew
):
    url = reverse("javascript-catalog")
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    etag = italian["ETag"]
    again = client.get(url, HTTP_ACCEPT_LANGUAGE="it", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    norwegian = client.get(url, HTTP_ACCEPT_LANGUAGE="nb", HTTP_IF_NONE_MATCH=etag)
    assert norwegian.status_code == 200 and norwegian.content != italian.content


def test_a_head_asks_and_a_post_is_refused(client, made_anew):
    url = reverse("javascript-catalog")
    assert client.head(url).status_code == 200
    assert client.post(url).status_code == 405
