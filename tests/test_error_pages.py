"""Error pages (403, 404, 500) render in the site's layout, with a way back home."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

from tests.factories import TournamentFactory, UserFactory

LAYOUT = 'class="site-header"'  # only base.html draws the site header


@pytest.fixture(autouse=True)
def production_errors(settings):
    # With DEBUG on, Django shows its technical pages instead of our templates.
    settings.DEBUG = False


def links_home(html: str) -> bool:
    return 'class="home-link" href="/"' in html


@pytest.mark.django_db
def test_unknown_url_is_a_404_in_the_layout_with_a_link_home(client):
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert LAYOUT in html and links_home(html)
    assert "<code>/no-such-page/</code>" in html


@pytest.mark.django_db
def test_permission_denied_is_a_403_in_the_layout_with_a_link_home(client):
    tournament = TournamentFactory()
    client.force_login(UserFactory())  # logged in, but not this tournament's organiser
    response = client.get(f"/manage/t/{tournament.slug}/")
    html = response.content.decode()
    assert response.status_code == 403
    assert LAYOUT in html and links_home(html)


def test_server_error_page_renders_in_the_layout_without_a_database():
    # No django_db mark: a 500 page that touched the database (often the thing that just
    # failed) would raise here. server_error renders 500.html with an empty context.
    response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert LAYOUT in html and links_home(html)
