"""The presence box of the battle page and its two POSTs, Ready and Claim a no-show,
with and without htmx; a spectator and a stranger change nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.battles import joining
from games.battles.starting import create_battles, create_casual_battle
from games.models.battle import Battle
from tests.factories import UserFactory, make_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    return create_casual_battle(
        game="thud",
        first=alice,
        second=bob,
        timing="quickfire",
        await_players=True,
        now=timezone.now(),
    )


def test_the_page_says_the_clock_waits_and_offers_ready(client, waiting):
    client.force_login(waiting.first_user)
    r = client.get(reverse("games:battle", args=[waiting.pk]))
    html = r.content.decode()
    assert 'id="presence-box"' in html and 'id="ready"' in html
    assert "The clock starts when both players are on this page" in html
    assert Battle.objects.get(pk=waiting.pk).first_joined_at is None  # a page read is not a join


def test_spectators_see_the_wait_without_buttons(client, waiting):
    html = client.get(reverse("games:battle", args=[waiting.pk])).content.decode()
    assert "The battle starts when both players have joined." in html
    assert 'id="ready"' not in html and 'id="claim-no-show"' not in html


def test_ready_with_htmx_joins_and_returns_the_board_fragment(client, waiting):
    client.force_login(waiting.second_user)
    url = reverse("games:ready", args=[waiting.pk])
    r = client.post(url, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "<html" not in r.content.decode()
    assert "You are here. Waiting for your opponent" in r.content.decode()
    assert 'id="claim-no-show"' in r.content.decode()
    version = Battle.objects.get(pk=waiting.pk).clock_version
    r = client.post(url)  # a double tap, without htmx: joined once, redirected
    assert r.status_code == 302
    assert Battle.objects.get(pk=waiting.pk).clock_version == version


def test_both_ready_start_the_clock(client, waiting):
    for user in (waiting.first_user, waiting.second_user):
        client.force_login(user)
        client.post(reverse("games:ready", args=[waiting.pk]))
    assert Battle.objects.get(pk=waiting.pk).status == "running"


def test_a_stranger_cannot_press_ready_or_claim(client, waiting):
    client.force_login(UserFactory())
    assert client.post(reverse("games:ready", args=[waiting.pk])).status_code == 403
    assert client.post(reverse("games:no_show", args=[waiting.pk])).status_code == 403
    b = Battle.objects.get(pk=waiting.pk)
    assert (b.status, b.first_joined_at, b.second_joined_at) == ("pending", None, None)


def test_an_early_claim_answers_409_with_the_reason_and_a_late_one_cancels(client, waiting):
    client.force_login(waiting.first_user)
    client.post(reverse("games:ready", args=[waiting.pk]))
    url = reverse("games:no_show", args=[waiting.pk])
    r = client.post(url, HTTP_HX_REQUEST="true")
    assert r.status_code == 409
    assert "Your opponent still has time to join" in r.content.decode()
    assert Battle.objects.get(pk=waiting.pk).status == "pending"
    with time_machine.travel(timezone.now() + timedelta(seconds=61)):
        r = client.post(url, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    html = r.content.decode()
    assert "This battle was cancelled: a player did not join in time." in html
    assert "Cancelled: nobody won or lost" in html
    games = client.get(reverse("play:games")).content.decode()
    assert "cancelled: a player did not join in time; nobody won or lost" in games


def test_the_page_says_when_a_no_show_may_be_claimed(client, waiting):
    t0 = timezone.now().replace(microsecond=0)
    client.force_login(waiting.first_user)
    with time_machine.travel(t0, tick=False):
        client.post(reverse("games:ready", args=[waiting.pk]))
        html = client.get(reverse("games:battle", args=[waiting.pk])).content.decode()
    ends = (t0 + timedelta(seconds=60)).strftime("%H:%M:%S")
    assert f"If your opponent has not joined by {ends} (UTC; 60 seconds after" in html


def test_a_tournament_battle_says_the_no_show_time_in_the_tournament_s_zone(client):
    (match,) = make_match(time_zone="Europe/Oslo")
    t0 = datetime(2026, 11, 24, 21, 0, 5, tzinfo=UTC)  # 22:00:05 in Oslo (winter time)
    with time_machine.travel(t0, tick=False):
        b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=t0)
        joining.open_for_players(b1.pk, side="dwarf", now=t0)
        client.force_login(b1.first_entry.player.user)
        html = client.get(reverse("games:battle", args=[b1.pk])).content.decode()
    assert "If your opponent has not joined by 22:01:05 (Europe/Oslo; 60 seconds after" in html


def test_a_hidden_page_s_ready_changes_nothing_and_a_seen_one_joins(client, waiting):
    client.force_login(waiting.first_user)
    url = reverse("games:ready", args=[waiting.pk])
    before = Battle.objects.get(pk=waiting.pk).clock_version
    r = client.post(url, {"visibility": "hidden"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'id="ready"' in r.content.decode()  # still to press
    b = Battle.objects.get(pk=waiting.pk)
    assert (b.first_joined_at, b.clock_version) == (None, before)
    client.post(url, {"visibility": "visible"}, HTTP_HX_REQUEST="true")
    assert Battle.objects.get(pk=waiting.pk).first_joined_at is not None


def test_the_ready_form_carries_the_visibility_and_says_how_one_joins(client, waiting):
    client.force_login(waiting.first_user)
    html = client.get(reverse("games:battle", args=[waiting.pk])).content.decode()
    assert '<input type="hidden" name="visibility" value="">' in html
    assert "You join when this page is in front of you, or when you press Ready." in html
