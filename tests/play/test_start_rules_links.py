"""The start page links every registered game's rules, named in the visitor's language
(``play.views.rules_links``: the registry's games, no game named in the template)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "links"),
    [
        (
            "en",
            [
                '<a href="/rules/">Rules of Thud</a> ·',
                '<a href="/rules/cavalli/">Rules of Battaglia di Cavalli</a> ·',
                '<a href="/rules/tiny/">Rules of Tiny</a></p>',  # the test settings' game
            ],
        ),
        (
            "it",
            [
                '<a href="/rules/">Regole di Thud</a> ·',
                '<a href="/rules/cavalli/">Regole di Battaglia di Cavalli</a> ·',
                '<a href="/rules/tiny/">Regole di Tiny</a></p>',
            ],
        ),
        ("nb", ['<a href="/rules/">Reglene for Thud</a>']),
    ],
)
def test_the_start_page_links_each_games_rules(client, language, links):
    client.force_login(UserFactory())
    client.cookies["django_language"] = language
    page = client.get(reverse("play:start"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for link in links:
        assert link in page
