"""The referee's clock page where it meets the rest of the day (HTTP, issue 41): battle 2
waits for battle 1; the figure is the same kind running and paused; the player to move
is named with the side the game calls them; a turn lost on time is told; a page back
after its battle paused for it (the referee-presence rule) tells when and for how long.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.battles.play import submit_move
from games.battles.referee import referee_decision
from games.battles.settle import settle
from games.battles.starting import create_battles
from games.live import referees
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock
from games.rules.referee_presence import THRESHOLD_MS
from tests.factories import make_match
from tournaments.models.people import Player

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
LONG = {"think_ms": 15_000, "move_ms": 5_000, "grace_ms": 300}


@pytest.fixture
def otb():
    """Both over-the-board battles of a timed 24-move match, pending, and its referee."""
    match = make_match(**LONG)[0]
    Player.objects.filter(pk=match.player_a.player_id).update(name="Agnes Nitt")
    Player.objects.filter(pk=match.player_b.player_id).update(name="Nanny Ogg")
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    client = Client()
    client.force_login(match.round.tournament.referees.get())
    return b1, b2, client


def page(client, battle: Battle, **extra) -> str:
    return unescape(client.get(reverse("games:referee_clock", args=[battle.pk]), **extra).text)


def act(client, battle: Battle, action: str, **data):
    url = reverse("games:referee_action", args=[battle.pk, action])
    return client.post(url, data, **HX)


def fresh(battle: Battle) -> Battle:
    return Battle.objects.get(pk=battle.pk)


def clock_text(html: str, role: str) -> str:
    found = re.search(rf'data-role="{role}">(.*?)</', html, re.S)
    assert found, role
    return " ".join(found.group(1).split())


def test_battle_two_waits_for_battle_one_on_the_page_and_on_the_server(otb):
    b1, b2, client = otb
    act(client, b1, "start")
    assert fresh(b1).status == Battle.Status.RUNNING

    # Battle 2's page offers no start while battle 1 runs, and says why.
    html = page(client, b2)
    assert 'id="start"' not in html
    assert "Battle 1 is still being played: this battle's clock starts once it is over." in html
    assert reverse("games:referee_clock", args=[b1.pk]) in html
    # A start posted all the same is refused, and nothing changes: battle 1 runs on.
    before = fresh(b1).clock_version
    answer = unescape(act(client, b2, "start").text)
    assert "Battle 1 of this match is still being played: battle 2 starts once it is over." in (
        answer
    )
    assert fresh(b2).status == Battle.Status.PENDING
    assert (fresh(b1).status, fresh(b1).clock_version) == (Battle.Status.RUNNING, before)
    assert not ClockEvent.objects.filter(battle=b2).exists()

    # Once battle 1 is over, battle 2 starts.
    referee_decision(b1.pk, reason="time", now=timezone.now())
    assert 'id="start"' in page(client, b2)
    act(client, b2, "start")
    assert fresh(b2).status == Battle.Status.RUNNING


def test_a_paused_clock_says_paused_and_shows_the_figure_it_showed_running(otb):
    b1, _b2, client = otb
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False):
        act(client, b1, "start")
    with time_machine.travel(t0 + timedelta(milliseconds=2_600), tick=False):
        running = page(client, b1)
        act(client, b1, "pause")
    paused = page(client, b1)
    # 12.4 s of think left: "13", whole seconds, in both states (not "17.4" paused).
    assert (clock_text(running, "label"), clock_text(running, "time")) == ("Think", "13")
    assert (clock_text(paused, "label"), clock_text(paused, "time")) == ("Paused (think)", "13")

    # Paused in the move phase: the turn's seconds to the tenth, as the running clock.
    act(client, b1, "resume")
    t1 = timezone.now()
    with time_machine.travel(t1 + timedelta(milliseconds=13_750), tick=False):
        running = page(client, b1)
        act(client, b1, "pause")
    paused = page(client, b1)
    assert clock_text(running, "label") == "MOVE NOW"
    assert clock_text(paused, "label") == "Paused (move)"
    assert clock_text(paused, "time") == clock_text(running, "time")
    assert re.fullmatch(r"\d\.\d", clock_text(paused, "time"))


def test_the_clock_names_the_player_to_move_with_the_side(otb):
    b1, _b2, client = otb
    act(client, b1, "start")
    # The game's side names (games/thud), the players' names (the tournament's entries).
    assert clock_text(page(client, b1), "info") == "Move 1 of 24: Agnes Nitt (Dwarfs)"
    act(client, b1, "moved", version=fresh(b1).clock_version)
    html = page(client, b1)
    assert clock_text(html, "info") == "Move 1 of 24: Nanny Ogg (Trolls)"
    assert '"troll": "Nanny Ogg"' in html  # clock.js names them the same as it counts down


def test_a_turn_lost_on_time_is_told_on_the_referee_page_until_the_next_ply(otb):
    b1, _b2, client = otb
    act(client, b1, "start")
    assert "Time ran out" not in page(client, b1)
    b = fresh(b1)
    settle(b.pk, via=ClockEvent.Via.SWEEP, now=b.deadline + timedelta(milliseconds=400))
    told = "Time ran out: Agnes Nitt (Dwarfs) forfeits the turn."
    assert told in page(client, b1)
    assert told in unescape(act(client, b1, "touched", version=fresh(b1).clock_version).text)
    # The next ply (a move) ends it.
    b = fresh(b1)
    submit_move(b.pk, side=b.side_to_move, version=b.clock_version, now=timezone.now())
    assert "Time ran out" not in page(client, b1)


@pytest.mark.parametrize("press", ["touched", "moved"])
def test_a_page_back_after_its_battle_paused_for_it_tells_when_and_for_how_long(otb, press):
    b1, _b2, client = otb
    t0 = timezone.now().replace(microsecond=0)
    with time_machine.travel(t0, tick=False):
        act(client, b1, "start")
        client.post(reverse("games:referee_beat", args=[b1.pk]), {"version": "1"})
    # The page sleeps: unseen past the threshold, the sweep pauses the battle.
    away_at = t0 + timedelta(milliseconds=THRESHOLD_MS + 1_000)
    assert referees.check(via=ClockEvent.Via.SWEEP, now=away_at) == 1
    assert fresh(b1).paused_reason == clock.REASON_REFEREE_OFFLINE
    # It wakes up 7 s later: its first beat resumes the battle; the page it draws says so.
    with time_machine.travel(away_at + timedelta(seconds=7), tick=False):
        client.post(reverse("games:referee_beat", args=[b1.pk]), {"version": "2"})
        assert fresh(b1).status == Battle.Status.RUNNING
        html = page(client, b1)
        fragment = unescape(client.get(reverse("games:referee_clock", args=[b1.pk]), **HX).text)
    local = timezone.localtime(away_at, ZoneInfo(b1.match.round.tournament.time_zone))
    told = f"The clock was paused while this page was away (from {local:%H:%M:%S} for 7 s)."
    assert told in html and told in fragment
    assert "data-dismiss-away" in html
    # Until the next clock action: a press ends it.
    answer = unescape(act(client, b1, press, version=fresh(b1).clock_version).text)
    assert "while this page was away" not in answer
    assert "while this page was away" not in page(client, b1)
