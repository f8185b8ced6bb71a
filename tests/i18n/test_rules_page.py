"""The public rules page: in the visitor's language, with the starting position drawn
from the engine's Position.initial() and the numbers quoted from the tournament defaults."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.web.presenters_thud import rules_context
from tournaments.models.tournament import Tournament

from .support import visible_text

pytestmark = pytest.mark.django_db

TROLLS = {"G7", "H7", "J7", "G8", "J8", "G9", "H9", "J9"}
FREE_EDGE = {"H1", "A8", "P8", "H15"}


def pieces(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-square="(\w+)" data-piece="(\w+)"', html))


def test_board_cells_cover_the_165_squares_with_the_initial_pieces():
    cells = rules_context()["cells"]
    assert len(cells) == 165
    by_piece = {}
    for cell in cells:
        by_piece.setdefault(cell["piece"], set()).add(cell["name"])
    assert by_piece["troll"] == TROLLS
    assert by_piece["stone"] == {"H8"}
    assert len(by_piece["dwarf"]) == 32 and not by_piece["dwarf"] & FREE_EDGE
    # Row 0 is drawn on top, the files left to right.
    f1 = next(c for c in cells if c["name"] == "F1")
    assert (f1["x"], f1["y"]) == (100, 0)


def test_rules_page_draws_the_starting_position(client):
    html = client.get(reverse("rules")).content.decode()
    drawn = pieces(html)
    assert html.count("data-square=") == 165
    assert {s for s, p in drawn.items() if p == "troll"} == TROLLS
    assert [s for s, p in drawn.items() if p == "stone"] == ["H8"]
    assert sum(p == "dwarf" for p in drawn.values()) == 32
    assert 'role="img" aria-labelledby="start-caption"' in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Rules of Thud", "hurled", "shoved", "Thudstone", "4 points", "24 or 30"]),
        ("it", ["Regole di Thud", "lanciato", "spinto", "pietra di Thud", "4 punti", "24 o 30"]),
    ],
)
def test_rules_page_reads_in_the_visitors_language(client, language, words):
    text = visible_text(
        client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    )
    for word in words:
        assert word in text


def test_rules_quote_the_clock_numbers_from_the_tournament_defaults(client, monkeypatch):
    monkeypatch.setattr(Tournament._meta.get_field("think_ms"), "default", 12_000)
    monkeypatch.setattr(Tournament._meta.get_field("max_consecutive_forfeits"), "default", 1)
    text = visible_text(client.get(reverse("rules")).content.decode())
    assert "each turn has 12 s to think and 5 s to move" in text
    assert "After 1 lost turn in a row" in text


def test_rules_are_linked_from_the_navigation_of_every_page(client, world):
    for name, (url, user) in world.pages.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        html = client.get(url).content.decode()
        nav = html[html.index('<nav class="site-nav"') : html.index("</nav>")]
        assert f'href="{reverse("rules")}"' in nav, name
