"""A player's own page: by the secret personal link (no login) and from their account."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import (
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models.rounds import Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.personal_links import personal_path, revoke_personal_link
from tournaments.results.final import record_final_result

pytestmark = pytest.mark.django_db


def running_match(**tournament_fields):
    t = TournamentFactory(status=Tournament.Status.RUNNING, rounds=3, **tournament_fields)
    a = EntryFactory(tournament=t, player=PlayerFactory(name="Agnes Nitt"))
    b = EntryFactory(tournament=t, player=PlayerFactory(name="Detritus"))
    return MatchFactory(round=RoundFactory(tournament=t, number=2), table=7, player_a=a, player_b=b)


def test_personal_link_works_without_login_and_shows_table_opponent_and_sides(client):
    m = running_match()
    html = client.get(personal_path(m.player_b)).content.decode()
    assert "<h1>Detritus</h1>" in html
    assert "Round 2" in html and "table 7" in html
    assert "Agnes Nitt" in html  # the opponent
    # Player B has the second side in battle 1 and the first in battle 2.
    assert "Battle 1</strong>: you play trolls" in html
    assert "Battle 2</strong>: you play dwarfs" in html
    assert "Awaiting result" in html
    assert "Play your match" in html


def test_personal_page_answers_htmx_with_the_round_panel_only(client):
    m = running_match()
    response = client.get(personal_path(m.player_a), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="my-round"')
    assert "<h1>" not in html and "Battle 1</strong>: you play dwarfs" in html


def test_personal_page_is_neither_cached_nor_referred(client):
    m = running_match()
    response = client.get(personal_path(m.player_a))
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "no-referrer"


def test_revoked_link_answers_404_and_the_new_one_works(client):
    m = running_match()
    old = personal_path(m.player_a)
    assert client.get(old).status_code == 200
    revoke_personal_link(m.player_a)
    assert client.get(old).status_code == 404
    assert client.get(personal_path(Entry.objects.get(pk=m.player_a_id))).status_code == 200


def test_unknown_token_answers_404(client):
    assert client.get("/p/not-a-token/").status_code == 404


def test_organiser_revokes_a_link_from_the_players_page_after_a_confirmation(client):
    m = running_match()
    t = m.round.tournament
    old = personal_path(m.player_a)
    client.force_login(t.owner)
    dashboard = client.get(reverse("organiser_dashboard", args=[t.slug])).content.decode()
    url = reverse("organiser_revoke_link", args=[t.slug, m.player_a_id])
    assert f'action="{url}"' in dashboard
    assert "Revoke the personal link of Agnes Nitt? The old link" in dashboard  # data-confirm
    assert client.get(url).status_code == 405  # a GET changes nothing
    assert client.get(old).status_code == 200
    asked = client.post(url, HTTP_HX_REQUEST="true")  # no yes (no script, a stale page)
    assert asked.status_code == 400
    assert "Revoke the personal link of Agnes Nitt? The old link stops working" in (
        asked.content.decode()
    )
    assert client.get(old).status_code == 200  # nothing changed
    response = client.post(url, {"confirm": "1"}, HTTP_HX_REQUEST="true")
    assert "Agnes Nitt has a new personal link" in response.content.decode()
    assert client.get(old).status_code == 404


def test_only_an_organiser_revokes_a_link(client):
    m = running_match()
    t = m.round.tournament
    old = personal_path(m.player_a)
    client.force_login(UserFactory())
    url = reverse("organiser_revoke_link", args=[t.slug, m.player_a_id])
    assert client.post(url).status_code == 403
    assert client.get(old).status_code == 200


def test_no_token_shows_on_the_public_pages(client):
    m = running_match()
    t = m.round.tournament
    tokens = [e.personal_token for e in t.entries.all()]
    pages = [
        reverse("tournament", args=[t.slug]),
        reverse("round_pairings", args=[t.slug, 2]),
        reverse("standings", args=[t.slug]),
        reverse("player", args=[t.slug, m.player_a_id]),
        reverse("player", args=[t.slug, m.player_b_id]),
        f"/api/tournaments/{t.slug}/",
        f"/api/tournaments/{t.slug}/rounds/2/pairings",
        f"/api/tournaments/{t.slug}/standings",
        "/",
        # One player's own page never shows another entry's token.
        personal_path(m.player_a),
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        body = response.content.decode()
        for token in tokens:
            if page == personal_path(m.player_a) and token == m.player_a.personal_token:
                continue
            assert token not in body, (page, token)


def test_logged_in_player_reaches_their_page_from_their_account(client):
    m = running_match()
    user = UserFactory()
    m.player_a.player.user = user
    m.player_a.player.save()
    t = m.round.tournament
    client.force_login(user)
    assert reverse("my_page", args=[t.slug]) in client.get("/").content.decode()
    html = client.get(reverse("my_page", args=[t.slug])).content.decode()
    assert "Detritus" in html and "table 7" in html
    assert "Battle 1</strong>: you play dwarfs" in html


def test_my_page_is_403_for_someone_not_in_the_tournament(client):
    m = running_match()
    client.force_login(UserFactory())
    assert client.get(reverse("my_page", args=[m.round.tournament.slug])).status_code == 403


def test_page_shows_the_confirmed_result_and_waits_for_the_next_round(client):
    m = running_match()
    record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now())
    html = client.get(personal_path(m.player_a)).content.decode()
    assert "Confirmed" in html and "You " in html
    assert "Waiting for round 3 to be published." in html


def test_page_before_any_round_and_after_the_end(client):
    t = TournamentFactory(status=Tournament.Status.SETUP)
    e = EntryFactory(tournament=t, checked_in=True)
    html = client.get(personal_path(e)).content.decode()
    assert "No round published yet" in html and "Checked in" in html
    assert "Waiting for round 1 to be published." in html
    RoundFactory(tournament=t, number=1, status=Round.Status.DRAFT)  # drafts stay hidden
    assert "No round published yet" in client.get(personal_path(e)).content.decode()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    html = client.get(personal_path(e)).content.decode()
    assert "The tournament is over: your final place is 1." in html
    assert 'data-follow="0"' in html  # nothing more to wait for: the stream is not opened
    assert "data-notify-permission" not in html  # nor is a next round offered


def test_the_next_round_is_offered_only_while_one_can_come(client):
    """The notification offer and the page's round to come follow the rounds planned: a
    round after round 2 of 3, none during the last round (a closed tournament: above)."""
    m = running_match()  # round 2 of 3
    html = client.get(personal_path(m.player_a)).content.decode()
    assert 'data-round-to-come="1"' in html and "data-notify-permission" in html
    RoundFactory(tournament=m.round.tournament, number=3)
    html = client.get(personal_path(m.player_a)).content.decode()
    assert 'data-round-to-come="0"' in html and "data-notify-permission" not in html


def test_page_shows_each_online_battles_status_and_follows_the_one_being_played(client):
    m = running_match(variant=Tournament.Variant.TIMED_24)
    first, second = create_battles(m, mode=Battle.Mode.ONLINE, now=timezone.now())
    start_battle(first.pk, now=timezone.now())
    html = client.get(personal_path(m.player_a)).content.decode()
    assert "Running" in html and "Not started" in html
    assert reverse("games:battle", args=[first.pk]) in html
    # The page follows the hall screen's stream, and its own battles' states on it.
    events = reverse("games:hall_events", args=[m.round.tournament.slug])
    assert f'data-events-url="{events}"' in html
    assert f'data-battles="{first.pk} {second.pk} "' in html
    # The running battle's two clocks, the side to move's counting down (player_page.js).
    assert 'id="clocks-1"' in html and 'id="clocks-2"' not in html
    assert html.count("data-remaining-ms=") == 1 and "move 1 of 24" in html


def test_my_matches_links_my_page_of_each_running_tournament(client):
    m = running_match()
    user = UserFactory()
    m.player_b.player.user = user
    m.player_b.player.save()
    client.force_login(user)
    html = client.get(reverse("referee_my_matches")).content.decode()
    assert reverse("my_page", args=[m.round.tournament.slug]) in html
