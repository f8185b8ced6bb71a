"""The organiser's dashboard: who may see it, creating a tournament, closing it."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import timezone

from tests.factories import PASSWORD, TournamentFactory, UserFactory
from tests.tournaments.web.organiser.pages import NEW_TOURNAMENT, organiser_role, url
from tournaments.models.tournament import Tournament
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- access


@pytest.mark.parametrize(
    ("method", "rest"),
    [
        ("get", ""),
        ("post", "players/add/"),
        ("post", "rounds/generate/"),
        ("post", "close/"),
        ("post", "referees/"),
    ],
)
def test_anonymous_users_are_sent_to_login(client, tournament, method, rest):
    response = getattr(client, method)(url(tournament, rest))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    ("method", "rest"),
    [("get", ""), ("post", "players/add/"), ("post", "rounds/generate/"), ("post", "close/")],
)
def test_other_users_get_403_and_nothing_changes(client, tournament, method, rest):
    client.force_login(UserFactory())
    response = getattr(client, method)(url(tournament, rest), {"name": "Intruder"})
    assert response.status_code == 403
    assert not tournament.round_set.exists() and tournament.entries.count() == 4


def test_referees_are_not_organisers(client, tournament):
    referee = UserFactory()
    tournament.referees.add(referee)
    client.force_login(referee)
    assert client.get(url(tournament)).status_code == 403


def test_new_tournament_needs_the_organiser_role_not_staff(client):
    client.force_login(UserFactory(is_staff=True))
    assert client.get("/manage/t/new/").status_code == 403
    assert client.post("/manage/t/new/", NEW_TOURNAMENT).status_code == 403
    assert not Tournament.objects.exists()


def test_an_organiser_creates_a_tournament_they_own(client):
    user = organiser_role(UserFactory())
    assert client.login(username=user.username, password=PASSWORD)
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "lancre"})
    assert response.status_code == 302 and response["Location"] == "/manage/t/lancre/"
    assert Tournament.objects.get(slug="lancre").owner == user
    assert client.get("/manage/t/lancre/").status_code == 200


def test_new_tournament_bad_input_shows_errors_and_creates_nothing(client):
    client.force_login(organiser_role(UserFactory()))
    response = client.post("/manage/t/new/", {"name": "X", "slug": "bad slug!", "rounds": 0})
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_slug_is_made_from_the_name_when_left_empty(client):
    client.force_login(organiser_role(UserFactory()))
    page = client.get("/manage/t/new/").content.decode()
    assert "Leave it empty to make it from the name" in page
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"name": "Lancre Open: Koom Valley!"})
    assert response["Location"] == "/manage/t/lancre-open-koom-valley/"


def test_a_slug_made_from_a_taken_name_gets_a_suffix(client):
    TournamentFactory(slug="lancre-open")
    TournamentFactory(slug="lancre-open-2")
    client.force_login(organiser_role(UserFactory()))
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"name": "Lancre Open"})
    assert response["Location"] == "/manage/t/lancre-open-3/"
    assert Tournament.objects.get(slug="lancre-open-3").name == "Lancre Open"


def test_a_typed_slug_that_is_taken_is_refused_with_a_clear_error(client):
    TournamentFactory(slug="lancre")
    client.force_login(organiser_role(UserFactory()))
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "lancre"})
    assert response.status_code == 400
    assert "The address lancre is taken by another tournament" in response.content.decode()
    assert Tournament.objects.count() == 1


def test_a_name_without_letters_asks_for_a_slug(client):
    client.force_login(organiser_role(UserFactory()))
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"name": "!!!"})
    assert response.status_code == 400
    assert "No web address can be made from this name" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_pairing_seed_is_under_advanced_with_an_explanation(client):
    client.force_login(organiser_role(UserFactory()))
    page = client.get("/manage/t/new/").content.decode()
    field = page.index('name="pairing_seed"')
    # The form's own <details> (the site header has another: results not sent yet).
    start = page.rindex("<details", 0, field)
    assert "</details>" not in page[start:field]  # the field is inside that <details>
    advanced = page[start : page.index("</details>", field)]
    assert 'name="pairing_seed"' in advanced and page.count('name="pairing_seed"') == 1
    assert "makes the random choices of pairing repeatable" in advanced


def test_close_tournament(organiser, tournament):
    r = publish_round(pair_next_round(tournament, by=None, now=timezone.now()), now=timezone.now())
    organiser.post(url(tournament, "close/"), {"confirm": "1"})
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.FINISHED
    for m in r.matches.all():
        record_final_result(
            m, survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now()
        )
    organiser.post(url(tournament, "close/"), {"confirm": "1"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


@pytest.mark.parametrize("model", ["player", "tournament", "round", "match", "forbiddenpair"])
def test_admin_changelists_render(client, tournament, model):
    publish_round(pair_next_round(tournament, by=None, now=timezone.now()), now=timezone.now())
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get(f"/admin/tournaments/{model}/").status_code == 200


# ---------------------------------------------------------------- rough edges


def test_pair_is_not_offered_while_a_draft_exists(organiser, tournament):
    assert "Pair round 1" in organiser.get(url(tournament)).content.decode()
    pair_next_round(tournament, by=None, now=timezone.now())
    page = organiser.get(url(tournament)).content.decode()
    assert "Pair round" not in page
    assert f'<a href="{url(tournament, "rounds/1/")}">Publish or discard round 1 first</a>' in page


def test_round_robin_with_too_few_rounds_is_warned_on_the_dashboard(organiser, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(format="round_robin", rounds=2)
    page = organiser.get(url(tournament)).content.decode()
    assert "A round robin of 4 players needs 3 rounds" in page and "this tournament has 2" in page
    Tournament.objects.filter(pk=tournament.pk).update(rounds=3)
    assert "round robin of 4 players" not in organiser.get(url(tournament)).content.decode()


def test_link_buttons_are_not_white_on_the_page(organiser, tournament):
    tournament.referees.add(UserFactory())
    page = organiser.get(url(tournament)).content.decode()
    assert re.search(r'<button type="submit" class="link"[^>]*>remove</button>', page)
    css = (settings.BASE_DIR / "static/css/site.css").read_text()
    rule = re.search(r"^button\.link \{(.*?)\}", css, re.M | re.S).group(1)
    colour = re.search(r"(?<![-\w])color:\s*([^;]+);", rule)
    assert colour and colour.group(1).strip() not in ("#fff", "#ffffff", "white")


# ---------------------------------------------------------------- the game of a tournament


def test_an_organiser_creates_a_cavalli_tournament(client):
    client.force_login(organiser_role(UserFactory()))
    page = client.get("/manage/t/new/").content.decode()
    assert 'name="game"' in page and "Battaglia di Cavalli" in page
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "cav", "game": "cavalli"})
    assert response.status_code == 302
    assert Tournament.objects.get(slug="cav").game == "cavalli"


def test_a_new_tournament_without_a_game_plays_thud_and_an_unknown_game_is_refused(client):
    client.force_login(organiser_role(UserFactory()))
    client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "plain"})
    assert Tournament.objects.get(slug="plain").game == "thud"
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "x", "game": "chess"})
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    assert not Tournament.objects.filter(slug="x").exists()
