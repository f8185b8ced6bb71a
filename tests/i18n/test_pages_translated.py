"""Every kind of page, for every role, reads in the visitor's language: with
Accept-Language: it (and nb), none of the UI's commonest English words is visible.

The control test renders the same pages in English and finds those words, so an empty
result in Italian means translated text, not a page that failed to render.
"""

from __future__ import annotations

import pytest

from .support import english_leftovers, language_params, visible_text

# The commonest words of the interface, as an English page shows them. None is spelt the
# same in Italian or Norwegian (so "Status", "Online", "Pause" or "Club" are not here),
# and no name in the test data contains one.
ENGLISH = (
    "Round",
    "round",
    "Standings",
    "Log in",
    "Log out",
    "Player",
    "player",
    "Players",
    "Result",
    "Enter",
    "Confirm",
    "Confirmed",
    "Table",
    "table",
    "Battle",
    "battle",
    "Battles",
    "dwarfs",
    "trolls",
    "Tournament",
    "Tournaments",
    "Match",
    "Matches",
    "Referee",
    "Rules",
    "Name",
    "Points",
    "Draw",
    "Winner",
    "Survivors",
    "Moves",
    "Clock",
    "Played",
    "Opponent",
    "Seed",
    "Print",
    "Publish",
    "Withdraw",
    "waiting",
    "pending",
    "Not started",
)
# Known leftovers on pages owned by other branches: (page, word) -> reason.
KNOWN = {
    ("battle", "pending"): "clock_panel.html prints snap.phase raw until clock.js redraws it",
    ("referee clock", "pending"): "clock_panel.html prints snap.phase raw until clock.js "
    "redraws it",
}


def render(client, world, name: str, language: str) -> str:
    url, user = world.pages[name]
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == (404 if name == "not found" else 200), name
    return response.content.decode()


@pytest.mark.parametrize("language", language_params())
def test_no_page_shows_the_commonest_english_words(client, world, language):
    found = {}
    for name in world.pages:
        html = render(client, world, name, language)
        assert f'<html lang="{language}">' in html, name
        leftovers = [w for w in english_leftovers(html, ENGLISH) if (name, w) not in KNOWN]
        if leftovers:
            found[name] = leftovers
    assert not found, f"English on {language} pages: {found}"


def test_control_every_page_shows_those_words_in_english(client, world):
    silent = [
        name
        for name in world.pages
        if not english_leftovers(render(client, world, name, "en"), ENGLISH)
    ]
    assert not silent, f"these pages show none of the words even in English: {silent}"


def test_control_visible_text_ignores_scripts_and_keeps_titles():
    html = (
        '<p title="Seed order">a<script>var Round = 1;</script><style>.Table{}</style>'
        "<input type=submit value=Confirm></p>"
    )
    assert visible_text(html) == "Seed order a Confirm"
