"""API v1 as a whole (front/api_v1.py): its OpenAPI document, one address style, problem
details for every refusal, ETags and 304s, the browsable docs."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from openapi_spec_validator import validate

from tests.factories import tournament_with_players
from thud_site.problems import CONTENT_TYPE
from tournaments.organising.checkin import set_checked_in as check_in
from tournaments.web.api_v1 import people

pytestmark = pytest.mark.django_db

PREFIX = "/api/v1/"
#: ninja's own addresses: the document, the docs, the root (only there to be reversed).
NOT_OPERATIONS = {"openapi-json", "openapi-view", "api-root", None}


def document(client) -> dict:
    response = client.get(f"{PREFIX}openapi.json")
    assert response.status_code == 200
    return response.json()


def v1_routes() -> list[str]:
    """Every operation's address under ``/api/v1/``, from the URL resolver, in
    OpenAPI's spelling (``{slug}``, converters dropped)."""
    (v1,) = [
        p
        for p in get_resolver().url_patterns
        if isinstance(p, URLResolver) and str(p.pattern) == "api/v1/"
    ]
    routes = []
    for p in v1.url_patterns:
        assert isinstance(p, URLPattern)
        if p.name in NOT_OPERATIONS:
            continue
        route = str(p.pattern).replace("<int:", "{").replace("<", "{").replace(">", "}")
        routes.append(PREFIX + route)
    return routes


def assert_problem(response, status: int) -> dict:
    assert response.status_code == status
    assert response["Content-Type"] == CONTENT_TYPE
    body = response.json()
    assert {"type", "title", "status", "detail"} <= set(body)
    assert body["status"] == status and body["type"] == "about:blank" and body["detail"]
    return body


def test_the_openapi_document_validates(client):
    doc = document(client)
    validate(doc)
    assert doc["info"]["version"] == "1"


def test_every_v1_route_is_in_the_document_with_its_response_schema(client):
    paths = document(client)["paths"]
    routes = v1_routes()
    # 12 reads; a battle's state and 5 actions on it; 2 streams (/stream/events too); the
    # challenges (listed and made at one address, which the resolver holds twice: ninja
    # adds an address per router) and 3 answers to one; a tournament match (read, played)
    assert len(routes) == 27
    for route in routes:
        assert route in paths, route
        for method, operation in paths[route].items():
            media = "application/x-ndjson" if "/stream" in route else "application/json"
            status = "201" if "201" in operation["responses"] else "200"
            ok = operation["responses"][status]["content"][media]["schema"]
            assert "$ref" in ok, (route, method)
            for status, answer in operation["responses"].items():
                if int(status) >= 400:
                    schema = answer["content"][CONTENT_TYPE]["schema"]
                    assert schema["$ref"].endswith("/Problem"), (route, method, status)
    assert set(paths) == set(routes)


def test_lists_are_paginated_in_the_document(client):
    paths = document(client)["paths"]
    for route in ("tournaments", "ratings", "tournaments/{slug}/standings"):
        names = {p["name"] for p in paths[PREFIX + route]["get"]["parameters"]}
        assert {"page", "page_size"} <= names, route


def test_an_unknown_address_and_a_trailing_slash_are_404_problems(client):
    t = tournament_with_players(2)
    assert client.get(f"{PREFIX}tournaments/{t.slug}").status_code == 200
    body = assert_problem(client.get(f"{PREFIX}tournaments/{t.slug}/"), 404)
    assert "no trailing slash" in body["detail"]
    assert_problem(client.get(f"{PREFIX}tournaments/"), 404)
    assert_problem(client.get(f"{PREFIX}nothing-here"), 404)
    assert_problem(client.get(PREFIX), 404)


def test_a_method_v1_does_not_offer_is_a_405_problem(client):
    t = tournament_with_players(2)
    response = client.post(f"{PREFIX}tournaments/{t.slug}/standings")
    body = assert_problem(response, 405)
    assert response["Allow"] == "GET" and "GET" in body["detail"]


@pytest.mark.parametrize("query", ["page=0", "page=x", "page_size=0"])
def test_bad_pagination_is_a_422_problem_naming_the_parameter(client, query):
    body = assert_problem(client.get(f"{PREFIX}tournaments?{query}"), 422)
    assert body["errors"][0]["loc"][-1] == query.split("=")[0]


def test_a_read_has_an_etag_and_a_304_when_the_reader_holds_it(client):
    """The entries' ETag is their body's digest (check-in does not bump the state
    version): a check-in changes it."""
    t = tournament_with_players(2, check_in_required=True)
    url = f"{PREFIX}tournaments/{t.slug}/entries"
    first = client.get(url)
    etag = first["ETag"]
    assert etag.startswith('"') and "no-cache" in first["Cache-Control"]
    again = client.get(url, headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    check_in(t.entries.first(), present=True, now=timezone.now())
    changed = client.get(url, headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["items"][0]["checked_in"] is True


def test_a_refusal_has_no_etag(client):
    assert "ETag" not in client.get(f"{PREFIX}tournaments/nope")


def test_the_docs_page_loads_its_assets_from_the_site(client):
    response = client.get(f"{PREFIX}docs")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"{PREFIX}openapi.json" in page
    for asset in ("ninja/swagger-ui-bundle.js", "ninja/swagger-ui-init.js", "ninja/swagger-ui.css"):
        assert f"/static/{asset}" in page and finders.find(asset), asset
        # WhiteNoise serves the app's static files (make run, without collectstatic).
        assert client.get(f"/static/{asset}").status_code == 200, asset
    assert "cdn." not in page


def test_a_bug_is_a_500_problem_and_is_logged(client, monkeypatch, caplog):
    def broken(*, game):
        raise RuntimeError("a bug")

    monkeypatch.setattr(people.loaders, "site_stats", broken)
    body = assert_problem(client.get(f"{PREFIX}stats"), 500)
    assert "a bug" not in body["detail"]
    assert any(r.name == "django.request" and r.exc_info for r in caplog.records)


def test_head_answers_as_get_without_the_body(client):
    t = tournament_with_players(2)
    got = client.get(f"{PREFIX}tournaments/{t.slug}/standings")
    head = client.head(f"{PREFIX}tournaments/{t.slug}/standings")
    assert (head.status_code, head["ETag"]) == (200, got["ETag"])
    assert head.content == b"" and head["Content-Type"] == got["Content-Type"]
    missing = client.head(f"{PREFIX}tournaments/nowhere")
    assert missing.status_code == 404 and missing.content == b""
