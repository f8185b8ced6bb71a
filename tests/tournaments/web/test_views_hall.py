"""The hall screen's page (tournaments/web/views_hall.py) and the organiser's controls
(tournaments/web/organiser/hall.py): public, in the language of its address, and the
controls gated and refusing bad input without changing anything."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import UserFactory, make_match
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    return make_match(tables=2)[0]


def test_anyone_sees_the_pairings_by_table_and_by_name(client, match):
    t = match.round.tournament
    html = client.get(reverse("hall", args=[t.slug])).content.decode()
    assert "Pairings by table" in html and "Find your table" in html and "Standings" in html
    assert match.player_a.player.name in html and 'lang="en"' in html
    assert reverse("games:hall_events", args=[t.slug]) in html


def test_the_address_chooses_the_language(client, match):
    t = match.round.tournament
    html = client.get(reverse("hall", args=[t.slug]) + "?lang=nb").content.decode()
    assert 'lang="nb"' in html and "Paringer etter bord" in html
    html = client.get(reverse("hall", args=[t.slug]) + "?lang=xx").content.decode()
    assert 'lang="en"' in html  # an unknown language: the usual one


def test_the_dashboard_links_the_hall_screen_in_every_other_language(client, match):
    """The languages come from settings.LANGUAGES, not from a sentence that names two."""
    t = match.round.tournament
    client.force_login(t.owner)
    hall = reverse("hall", args=[t.slug])
    for current in [code for code, _name in settings.LANGUAGES]:
        html = client.get(
            reverse("organiser_dashboard", args=[t.slug]), HTTP_ACCEPT_LANGUAGE=current
        ).content.decode()
        offered = re.findall(rf'href="{re.escape(hall)}\?lang=(\w+)"', html)
        assert sorted(offered) == sorted(c for c, _n in settings.LANGUAGES if c != current)
        # Each language is named in itself, whatever the page's language.
        assert 'lang="nb">norsk (bokmål)</a>' in html or current == "nb"


def test_the_slides_part_is_a_fragment_for_the_live_refresh(client, match):
    t = match.round.tournament
    html = client.get(reverse("hall", args=[t.slug]) + "?part=slides").content.decode()
    assert "<html" not in html and 'data-kind="tables"' in html


def test_the_tournament_pages_link_the_hall_screen(client, match):
    t = match.round.tournament
    html = client.get(reverse("tournament", args=[t.slug])).content.decode()
    assert reverse("hall", args=[t.slug]) in html and "Hall screen" in html


def test_the_organiser_sets_the_announcement_and_the_timer(client, match):
    t = match.round.tournament
    client.force_login(t.owner)
    client.post(reverse("organiser_announcement", args=[t.slug]), {"announcement": "Lunch!"})
    client.post(reverse("organiser_round_timer", args=[t.slug, "start"]), {"minutes": "30"})
    assert Tournament.objects.get(pk=t.pk).announcement == "Lunch!"
    assert Round.objects.get(pk=match.round_id).timer_minutes == 30
    html = client.get(reverse("hall", args=[t.slug])).content.decode()
    assert "Lunch!" in html and 'id="hall-timer"' in html
    dashboard = client.get(reverse("organiser_dashboard", args=[t.slug])).content.decode()
    assert 'id="round-timer-state"' in dashboard and "Stop the timer" in dashboard


@pytest.mark.parametrize("minutes", ["", "0", "abc", "601"])
def test_a_bad_timer_says_why_and_changes_nothing(client, match, minutes):
    t = match.round.tournament
    client.force_login(t.owner)
    r = client.post(
        reverse("organiser_round_timer", args=[t.slug, "start"]), {"minutes": minutes}, follow=True
    )
    assert r.status_code == 200 and 'class="messages' in r.content.decode()
    assert Round.objects.get(pk=match.round_id).timer_started_at is None


def test_strangers_cannot_change_the_hall_screen(client, match):
    t = match.round.tournament
    client.force_login(UserFactory())
    r = client.post(reverse("organiser_announcement", args=[t.slug]), {"announcement": "x"})
    assert r.status_code == 403
    r = client.post(reverse("organiser_round_timer", args=[t.slug, "start"]), {"minutes": "5"})
    assert r.status_code == 403
    assert Tournament.objects.get(pk=t.pk).announcement == ""
    assert Round.objects.get(pk=match.round_id).timer_started_at is None


def test_the_round_timer_shows_on_the_round_and_referee_pages(client, match):
    t = match.round.tournament
    round_url = reverse("round_pairings", args=[t.slug, match.round.number])
    assert "round-timer" not in client.get(round_url).content.decode()
    client.force_login(t.owner)
    client.post(reverse("organiser_round_timer", args=[t.slug, "start"]), {"minutes": "45"})
    ends = Round.objects.get(pk=match.round_id).timer_ends_at
    html = client.get(round_url).content.decode()
    assert f'data-ends-ms="{int(ends.timestamp())}000"' in html
    referee = client.get(reverse("referee_round", args=[t.slug, match.round.number]))
    assert "round-timer" in referee.content.decode()
    client.logout()
    mine = client.get(f"/p/{match.player_a.personal_token}/").content.decode()
    assert f'data-ends-ms="{int(ends.timestamp())}000"' in mine  # the player's own page
