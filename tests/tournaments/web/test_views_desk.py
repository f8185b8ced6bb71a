"""The check-in desk (``tournaments.web.views_desk``) and a player's own check-in
(``tournaments.web.views_checkin_self``)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import PlayerFactory, UserFactory, tournament_with_players
from tests.tournaments.rounds.played import play
from tournaments.models.entries import RoundAbsence
from tournaments.models.tournament import Entry
from tournaments.rounds.draw import pair_next_round

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def t():
    return tournament_with_players(4, rounds=3, check_in_required=True)


@pytest.fixture
def referee(client, t):
    user = UserFactory()
    t.referees.add(user)
    client.force_login(user)
    return client


def first(t) -> Entry:
    return t.entries.select_related("player").order_by("seed").first()


def test_the_desk_lists_players_with_counts_and_searches_without_javascript(referee, t):
    page = referee.get(reverse("desk", args=[t.slug]))
    assert page.status_code == 200
    assert b"0 present" in page.content and b"4 absent" in page.content
    player = first(t).player
    player.name = "Granny Weatherwax"
    player.save()
    found = referee.get(reverse("desk", args=[t.slug]), {"q": "weatherw"})
    assert found.content.count(b'id="desk-entry-') == 1
    fragment = referee.get(reverse("desk", args=[t.slug]), {"q": "", "list": "1"}, **HTMX)
    assert b"<html" not in fragment.content and b'id="desk-list"' in fragment.content


def test_a_double_post_checks_in_once(referee, t, django_capture_on_commit_callbacks):
    e = first(t)
    url = reverse("desk_check_in", args=[t.slug, e.pk])
    with django_capture_on_commit_callbacks() as callbacks:
        one = referee.post(url, {"present": "1"}, **HTMX)
        two = referee.post(url, {"present": "1"}, **HTMX)
    assert one.status_code == two.status_code == 200
    assert len(callbacks) == 1  # one change, one announcement
    assert b'id="desk-entry-' in two.content and b"1 present" in two.content
    assert b'hx-swap-oob="true"' in two.content and b"<html" not in two.content
    e.refresh_from_db()
    assert e.checked_in and e.checked_in_at is not None
    plain = referee.post(url, {"present": "0"})
    assert plain.status_code == 302
    e.refresh_from_db()
    assert not e.checked_in


def test_a_bad_post_changes_nothing(referee, t):
    e = first(t)
    bad = referee.post(reverse("desk_check_in", args=[t.slug, e.pk]), {"present": "yes"}, **HTMX)
    assert bad.status_code == 400 and b"desk-note" in bad.content
    skip = referee.post(reverse("desk_skip", args=[t.slug, e.pk]), {"round": "x"}, **HTMX)
    assert skip.status_code == 400
    e.refresh_from_db()
    assert not e.checked_in and not RoundAbsence.objects.exists()


def test_the_desk_marks_not_playing_the_next_round_and_refuses_a_paired_one(referee, t):
    for e in t.entries.all():
        e.checked_in = True
        e.save()
    play(t)
    e = first(t)
    page = referee.get(reverse("desk", args=[t.slug]))
    assert b"Not playing round 2" in page.content
    url = reverse("desk_skip", args=[t.slug, e.pk])
    assert referee.post(url, {"round": "2", "absent": "1"}, **HTMX).status_code == 200
    assert RoundAbsence.objects.filter(entry=e, round_number=2).exists()
    pair_next_round(t, by=None, now=timezone.now())
    refused = referee.post(url, {"round": "2", "absent": "0"}, **HTMX)
    assert refused.status_code == 400 and b"already paired" in refused.content
    assert RoundAbsence.objects.filter(entry=e, round_number=2).exists()


def test_a_stranger_gets_403_and_changes_nothing(client, t):
    client.force_login(UserFactory())
    e = first(t)
    assert client.get(reverse("desk", args=[t.slug])).status_code == 403
    post = client.post(reverse("desk_check_in", args=[t.slug, e.pk]), {"present": "1"})
    assert post.status_code == 403
    skip = client.post(reverse("desk_skip", args=[t.slug, e.pk]), {"round": "2", "absent": "1"})
    assert skip.status_code == 403
    assert client.post(reverse("check_in_self", args=[t.slug])).status_code == 403
    e.refresh_from_db()
    assert not e.checked_in


def test_the_dashboard_links_the_desk(client, t):
    client.force_login(t.owner)
    page = client.get(reverse("organiser_dashboard", args=[t.slug]))
    assert reverse("desk", args=[t.slug]).encode() in page.content


def test_a_player_checks_in_from_the_tournament_page_before_round_one(client, t):
    user = UserFactory()
    e = first(t)
    e.player.user = user
    e.player.save()
    client.force_login(user)
    page = client.get(reverse("tournament", args=[t.slug]))
    assert reverse("check_in_self", args=[t.slug]).encode() in page.content
    assert client.post(reverse("check_in_self", args=[t.slug])).status_code == 302
    e.refresh_from_db()
    assert e.checked_in
    page = client.get(reverse("tournament", args=[t.slug]))
    assert reverse("check_in_self", args=[t.slug]).encode() not in page.content


def test_a_player_sits_out_the_next_round_themselves(client, t):
    user = UserFactory()
    for e in t.entries.all():
        e.checked_in = True
        e.save()
    e = first(t)
    e.player.user = user
    e.player.save()
    play(t)
    client.force_login(user)
    page = client.get(reverse("tournament", args=[t.slug]))
    assert b"I will not play round 2" in page.content
    client.post(reverse("skip_round_self", args=[t.slug]), {"round": "2", "absent": "1"})
    assert RoundAbsence.objects.filter(entry=e, round_number=2).exists()
    client.post(reverse("skip_round_self", args=[t.slug]), {"round": "2", "absent": "0"})
    assert not RoundAbsence.objects.exists()


def test_someone_elses_player_cannot_check_in_for_them(client, t):
    other = PlayerFactory(user=UserFactory())
    client.force_login(other.user)
    assert client.post(reverse("check_in_self", args=[t.slug])).status_code == 403


def test_a_referee_is_not_offered_the_organiser_dashboard(referee, t):
    page = referee.get(reverse("desk", args=[t.slug]))
    assert reverse("organiser_dashboard", args=[t.slug]).encode() not in page.content
