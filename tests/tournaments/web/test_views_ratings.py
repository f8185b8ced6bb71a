"""The ratings pages and their JSON: the list per game, a player's history, the
tournament's player list, and bad input answered with 400 and a message."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import tournament_with_players
from tests.tournaments.rating.helpers import LATER, play_round
from tournaments.models.people import Player
from tournaments.models.ratings import SiteRating
from tournaments.rounds.play import close_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    t = tournament_with_players(4, name="Ankh-Morpork Open")
    play_round(t, 1)
    play_round(t, 2)
    close_tournament(t, now=LATER)
    return t


def test_api_lists_the_rated_players_best_first(client, rated):
    data = client.get(reverse("api_ratings"), {"game": "thud"}).json()
    assert len(data) == 4
    assert [d["rating"] for d in data] == sorted((d["rating"] for d in data), reverse=True)
    assert set(data[0]) == {
        "player", "name", "country", "rating", "rd", "volatility", "provisional", "matches"
    }  # fmt: skip
    assert data[0]["provisional"] is True and data[0]["matches"] == 2
    assert client.get(reverse("api_ratings"), {"game": "cavalli"}).json() == []


@pytest.mark.parametrize("query", [{}, {"game": "chess"}])
def test_api_refuses_a_missing_or_unknown_game(client, rated, query):
    response = client.get(reverse("api_ratings"), query)
    assert response.status_code == 400
    assert "Unknown game" in response.json()["error"]


def test_api_player_history_explains_each_period(client, rated):
    top = SiteRating.objects.order_by("-rating").first().player
    url = reverse("api_player_ratings", args=[top.pk])
    data = client.get(url, {"game": "thud"}).json()
    assert data["current"]["rating"] == pytest.approx(SiteRating.objects.get(player=top).rating)
    assert [h["round"] for h in data["history"]] == [1, 2]
    first = data["history"][0]
    assert first["before"]["rating"] == 1500 and first["games"][0]["score"] == 1.0
    assert first["explanation"].startswith(f"{first['change']:+.1f} · won against ")
    assert first["explanation"].endswith(" · Round 1, Ankh-Morpork Open")
    assert client.get(url, {"game": "go"}).status_code == 400
    assert (
        client.get(reverse("api_player_ratings", args=[99999]), {"game": "thud"}).status_code == 404
    )


def test_list_page_marks_provisional_ratings_and_filters_by_club(client, rated):
    Player.objects.filter(pk=SiteRating.objects.order_by("rating").first().player_id).update(
        club="Unseen University"
    )
    page = client.get(reverse("ratings"), {"game": "thud"}).content.decode()
    assert page.count("?</td>") + page.count("?<span") == 4  # "1520?": all still provisional
    only = client.get(reverse("ratings"), {"game": "thud", "club": "Unseen University"})
    assert only.content.decode().count('class="name"><a') == 1
    # A club nobody has is ignored: the whole list.
    ignored = client.get(reverse("ratings"), {"game": "thud", "club": "Nowhere"})
    assert ignored.content.decode().count('class="name"><a') == 4
    bad = client.get(reverse("ratings"), {"game": "chess"})
    assert bad.status_code == 400 and "Unknown game" in bad.content.decode()


def test_player_page_shows_rating_chart_table_and_explained_changes(client, rated):
    top = SiteRating.objects.order_by("-rating").first()
    page = client.get(reverse("player_ratings", args=[top.player_id]), {"game": "thud"})
    html = page.content.decode()
    assert f"± {top.rd:.0f}" in html
    assert "<svg" in html and 'id="rating-history"' in html and "<table" in html
    assert "won against" in html and "Round 2, Ankh-Morpork Open" in html
    none = client.get(reverse("player_ratings", args=[top.player_id]), {"game": "cavalli"})
    assert "No rated matches in this game yet." in none.content.decode()


def test_tournament_player_list_shows_site_ratings(client, rated):
    html = client.get(reverse("tournament", args=[rated.slug])).content.decode()
    assert html.count(reverse("player_ratings", args=[rated.entries.first().player_id])) == 1
    assert "Site rating" in html


# ---------------------------------------------------------------- countries (issue 42)


def country_options(page: str) -> list[tuple[str, str, bool]]:
    """The country filter's options but "All countries": (value, label, selected)."""
    select = re.search(r'<select id="country".*?</select>', page, re.S).group(0)
    return [
        (value, label, bool(selected))
        for value, selected, label in re.findall(
            r'<option value="([A-Z]+)"( selected)?>([^<]*)</option>', select
        )
    ]


@pytest.fixture
def countries(rated):
    """The four rated players: two of Italy (typed two ways), one of Germany, one of the UK."""
    players = list(Player.objects.filter(entries__tournament=rated).order_by("pk"))
    for player, country in zip(players, ["IT", "IT", "DE", "GB"], strict=True):
        player.country = country
        player.save()
    return players


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ["Germany", "Italy", "United Kingdom"]),
        ("it", ["Germania", "Italia", "Regno Unito"]),
        ("nb", ["Italia", "Storbritannia", "Tyskland"]),
    ],
)
def test_the_country_filter_lists_each_country_once_by_name_in_the_readers_language(
    client, countries, language, names
):
    page = client.get(reverse("ratings"), {"game": "thud"}, HTTP_ACCEPT_LANGUAGE=language)
    options = country_options(page.content.decode())
    assert [label for _code, label, _selected in options] == names
    assert sorted(code for code, _label, _selected in options) == ["DE", "GB", "IT"]


def test_the_ratings_filter_by_country_code_and_show_its_name(client, countries):
    page = client.get(
        reverse("ratings"), {"game": "thud", "country": "IT"}, HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert ("IT", "Italia", True) in country_options(page)
    shown = {p.name for p in countries if p.name in page}
    assert shown == {countries[0].name, countries[1].name}
    assert page.count('<td class="extra">Italia</td>') == 2
    # A code nobody rated has is ignored: the whole list.
    page = client.get(reverse("ratings"), {"game": "thud", "country": "NO"}).content.decode()
    assert {p.name for p in countries if p.name in page} == {p.name for p in countries}


def test_api_gives_each_players_country_as_its_code(client, countries):
    data = client.get(reverse("api_ratings"), {"game": "thud"}).json()
    assert {d["player"]: d["country"] for d in data} == {p.pk: p.country.code for p in countries}
