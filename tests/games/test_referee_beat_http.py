"""The referee clock page's beat (HTTP, issue 25): only a tournament battle's referees and
organisers may send it, with the CSRF token, for an over-the-board battle and saying which
clock state the page shows; anything else is refused with 4xx and changes nothing. A beat
from any of the battle's referees resumes a battle paused because its page was offline."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.live import referees
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock
from games.rules.referee_presence import THRESHOLD_MS
from tests.factories import UserFactory, make_match

pytestmark = pytest.mark.django_db
LONG = {"think_ms": 15_000, "move_ms": 5_000, "grace_ms": 300}


def started(mode: str = Battle.Mode.OTB) -> Battle:
    match = make_match(**LONG)[0]
    b1, _ = create_battles(match, mode=mode, now=timezone.now())
    return start_battle(b1.pk, now=timezone.now())


def referee_of(battle: Battle):
    return battle.match.round.tournament.referees.get()


def client_for(user, *, csrf: bool = False) -> Client:
    c = Client(enforce_csrf_checks=csrf)
    if user is not None:
        c.force_login(user)
    return c


def send(client: Client, battle: Battle, **data):
    data.setdefault("version", str(battle.clock_version))
    return client.post(reverse("games:referee_beat", args=[battle.pk]), data)


def seen(battle: Battle):
    return Battle.objects.get(pk=battle.pk).referee_seen_at


def test_a_referees_beat_is_kept_and_answers_the_version():
    b = started()
    r = send(client_for(referee_of(b)), b)
    assert r.status_code == 200
    assert r.json() == {"version": b.clock_version, "resumed": False}
    assert seen(b) is not None


def test_the_organiser_may_beat_too():
    b = started()
    assert send(client_for(b.match.round.tournament.owner), b).status_code == 200


@pytest.mark.parametrize("who", ["player", "stranger", "anonymous"])
def test_anyone_else_is_refused_and_nothing_is_kept(who):
    b = started()
    user = {
        "player": lambda: b.match.player_a.player.user,
        "stranger": lambda: UserFactory(username="passer-by"),
        "anonymous": lambda: None,
    }[who]()
    assert send(client_for(user), b).status_code in (302, 403)
    assert seen(b) is None


def test_an_unknown_battle_is_404():
    b = started()
    r = client_for(referee_of(b)).post(reverse("games:referee_beat", args=[b.pk + 999]))
    assert r.status_code == 404


def test_a_get_is_refused():
    b = started()
    assert (
        client_for(referee_of(b)).get(reverse("games:referee_beat", args=[b.pk])).status_code == 405
    )
    assert seen(b) is None


def test_an_online_battles_page_does_not_beat():
    b = started(Battle.Mode.ONLINE)
    r = send(client_for(referee_of(b)), b)
    assert r.status_code == 400
    assert "over-the-board" in r.json()["error"]
    assert seen(b) is None


@pytest.mark.parametrize("version", [None, "", "seven"])
def test_a_beat_that_does_not_say_what_the_page_shows_is_refused(version):
    b = started()
    c = client_for(referee_of(b))
    url = reverse("games:referee_beat", args=[b.pk])
    r = c.post(url, {} if version is None else {"version": version})
    assert r.status_code == 400
    assert "which state of the clock" in r.json()["error"]
    assert seen(b) is None


def test_a_beat_without_the_csrf_token_is_refused():
    b = started()
    assert send(client_for(referee_of(b), csrf=True), b).status_code == 403
    assert seen(b) is None


def test_another_referees_beat_resumes_the_battle_and_says_who_and_what_state():
    b = started()
    ref = referee_of(b)
    send(client_for(ref), b)
    later = Battle.objects.get(pk=b.pk).referee_seen_at
    assert (
        referees.check(via="sweep", now=later + timezone.timedelta(milliseconds=THRESHOLD_MS + 1))
        == 1
    )
    paused = Battle.objects.get(pk=b.pk)
    assert paused.paused_reason == clock.REASON_REFEREE_OFFLINE
    other = UserFactory(username="second-ref")
    b.match.round.tournament.referees.add(other)
    r = send(client_for(other), b, version=str(b.clock_version))  # the page shows the old state
    data = r.json()
    assert r.status_code == 200 and data["resumed"] is True
    assert data["state"]["status"] == clock.RUNNING and data["version"] == paused.clock_version + 1
    assert Battle.objects.get(pk=b.pk).status == clock.RUNNING
    event = ClockEvent.objects.get(battle=b, kind=ClockEvent.Kind.RESUMED)
    assert event.detail == "referee page back: second-ref"


def test_the_referee_page_of_an_otb_battle_shows_its_connection_state_and_beats():
    b = started()
    page = client_for(referee_of(b)).get(reverse("games:referee_clock", args=[b.pk]))
    html = page.content.decode()
    assert 'id="referee-link"' in html and 'role="status"' in html
    assert reverse("games:referee_beat", args=[b.pk]) in html
    assert "Connected: the clock runs while this page is open." in html
    assert "js/referee_link.js" in html


def test_the_referee_page_of_an_online_battle_does_not_beat():
    b = started(Battle.Mode.ONLINE)
    html = client_for(referee_of(b)).get(reverse("games:referee_clock", args=[b.pk])).content
    assert b'id="referee-link"' not in html and b"referee_link.js" not in html
