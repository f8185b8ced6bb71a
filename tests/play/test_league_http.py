"""The engine league's page (``/play/league/``, ``play.views_league``): public, the BOT
mark, the game switch, an unknown game, the empty state, and in Italian and Norwegian."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from play.league import league
from tests.factories import UserFactory
from tests.play.league_support import bot, ended

pytestmark = pytest.mark.django_db

URL = reverse("play:league")
MARK = '<abbr class="bot-mark" title="A program plays this account">BOT</abbr>'


@pytest.fixture
def played():
    """Two bots' match of Thud and of Cavalli, and two people's match of Thud."""
    now = timezone.now()
    x, y = bot(username="xeno"), bot(username="yara")
    thud = ended(x, y, ended_at=now - timedelta(hours=1), diff=6)
    cavalli = ended(y, x, ended_at=now - timedelta(hours=1), diff=-2, game="cavalli")
    ended(UserFactory(username="rincewind"), UserFactory(username="vimes"), ended_at=now, diff=1)
    return thud, cavalli


def rows(page: str, section: str) -> list[str]:
    body = re.search(rf'<section id="{section}">.*?</section>', page, re.S)
    assert body is not None, section
    return re.findall(r"<tr data-\w+=.*?</tr>", body.group(0), re.S)


def test_anonymous_reads_the_default_games_league_with_the_bot_mark(client, played):
    thud, _cavalli = played
    response = client.get(URL)
    assert response.status_code == 200
    page = response.content.decode()
    lines = rows(page, "league-ratings")
    assert [re.search(r'class="name">(\w+)', r).group(1) for r in lines] == ["xeno", "yara"]
    assert all(MARK in line for line in lines)
    shown = [line.shown for line in league("thud", now=timezone.now()).lines]
    assert shown[0].endswith("?") and all(
        f"<td>{s}" in r for s, r in zip(shown, lines, strict=True)
    )
    assert "<caption" in page and "rincewind" not in page and "vimes" not in page
    (result,) = rows(page, "league-recent")
    assert "xeno against yara" in result and "<td>+6</td>" in result
    assert reverse("games:battle", args=[thud.battle_1_id]) in result


def test_the_game_switch_shows_the_other_games_league(client, played):
    _thud, cavalli = played
    page = client.get(URL).content.decode()
    assert 'href="?game=cavalli"' in page and 'href="?game=thud" aria-current="page"' in page
    page = client.get(URL, {"game": "cavalli"}).content.decode()
    assert 'href="?game=cavalli" aria-current="page"' in page
    (result,) = rows(page, "league-recent")
    assert "yara against xeno" in result and "<td>-2</td>" in result
    assert reverse("games:battle", args=[cavalli.battle_1_id]) in result


def test_an_unknown_game_is_a_404_that_says_so(client, played):
    response = client.get(URL, {"game": "chess"})
    assert response.status_code == 404
    page = response.content.decode()
    assert 'role="alert">Unknown game.' in page and "league-ratings" not in page
    assert 'href="?game=thud"' in page


def test_no_bot_match_shows_the_empty_state(client):
    ended(UserFactory(), UserFactory(), ended_at=timezone.now(), diff=1)
    page = client.get(URL).content.decode()
    assert 'id="league-empty"' in page and "<table" not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "it",
            ["Lega dei motori", "I rating dei bot a Thud", "xeno contro yara", "Ultime partite"],
        ),
        ("nb", ["Motorligaen", "Robotenes ratinger i Thud", "xeno mot yara", "Siste kamper"]),
    ],
)
def test_the_page_reads_in_italian_and_norwegian(client, played, language, words):
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert all(w in page for w in words), [w for w in words if w not in page]
    assert "Engine league" not in page and "Latest matches" not in page


def test_the_statistics_page_links_to_it(client):
    assert f'href="{URL}"' in client.get(reverse("play:stats")).content.decode()


@pytest.mark.parametrize("n", [2, 6])
def test_the_page_queries_do_not_grow_with_bots(client, n):
    now = timezone.now()
    bots = [bot() for _ in range(n)]
    for i, (a, b) in enumerate(zip(bots, bots[1:] + bots[:1], strict=True)):
        ended(a, b, ended_at=now - timedelta(minutes=60 - i), diff=i - 1)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(URL).status_code == 200
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]
