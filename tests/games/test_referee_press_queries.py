"""What a referee's press asks the database (issue 44: a full hall is mostly presses).

The count is pinned so that it drops and stays: the session and the user, the gate (the
battle with its tournament and the user's appointments, in one query), the
compare-and-set write and its move (a savepoint here, a transaction in production) and
the match's battles. Not asked: the
battle again by settle (it starts from the gate's read, with no transaction of its own
when nothing is due), the row again after the press (the workflow returns it as
written), the clock events for the panel's news (a move is no resume: no pause to tell
of), nor, on commit, whether the battle is a casual correspondence one (``turn_changed``
says what the battle is, so ``play.notify`` asks nothing). The pages too: settle starts
from the gate's read. ``bench/press_cost.py`` prints the CPU.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.live import referees
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from games.rules.referee_presence import THRESHOLD_MS
from play.models import Notice
from tests.factories import make_match

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')

#: session, user, gate battle (with the appointments), SAVEPOINT, UPDATE, INSERT move,
#: RELEASE, the match's battles.
PRESS_QUERIES = 8


@pytest.fixture
def running():
    match = make_match(think_ms=15_000, move_ms=5_000, grace_ms=300)[0]
    b1, _b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    client = Client()
    client.force_login(match.round.tournament.referees.get())
    # The session's first request keeps the profile's language in it: not a press's cost.
    client.get(reverse("games:referee_clock", args=[b1.pk]))
    return Battle.objects.get(pk=b1.pk), client


def press(client, battle: Battle, version: int, action: str = "moved"):
    url = reverse("games:referee_action", args=[battle.pk, action])
    return client.post(url, {"version": version}, **HX)


def test_a_moved_press_asks_the_database_eight_things_commit_included(
    running, django_assert_num_queries, django_capture_on_commit_callbacks
):
    battle, client = running
    version = battle.clock_version
    with (
        django_assert_num_queries(PRESS_QUERIES),
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        answer = press(client, battle, version)
    assert callbacks  # the publish and turn_changed ran inside the count
    assert answer.status_code == 200
    # The panel shows the row as the press wrote it: the next version, the other side.
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.clock_version == version + 1
    assert f'name="version" value="{version + 1}"' in answer.text
    assert Move.objects.filter(battle=battle, clock_version_before=version).count() == 1
    assert not Notice.objects.exists()


def test_the_panel_after_a_press_is_the_one_a_fresh_page_shows(running):
    battle, client = running
    answer = unescape(press(client, battle, battle.clock_version).text)
    # The panel as the press's own row drew it, and as it is drawn from a fresh read.
    page = reverse("games:referee_clock", args=[battle.pk])
    fresh = unescape(client.get(page, **HX).text)
    assert f'data-version="{battle.clock_version + 1}"' in answer
    assert TOKEN.sub("", answer) == TOKEN.sub("", fresh)  # the tokens are masked anew


def test_a_refused_press_shows_the_battle_as_stored(running):
    battle, client = running
    press(client, battle, battle.clock_version)
    answer = unescape(press(client, battle, battle.clock_version).text)  # stale now
    assert "The battle changed meanwhile" in answer
    assert f'name="version" value="{battle.clock_version + 1}"' in answer


def test_a_press_after_the_deadline_settles_the_expiry_from_the_gates_read_and_is_refused(
    running,
):
    battle, client = running
    version = battle.clock_version
    with time_machine.travel(battle.deadline + timedelta(seconds=1), tick=False):
        answer = unescape(press(client, battle, version).text)
    stored = Battle.objects.get(pk=battle.pk)
    assert stored.clock_version == version + 1  # the expiry, not the move
    assert ClockEvent.objects.filter(battle=battle, kind=clock.TURN_EXPIRED).count() == 1
    assert list(Move.objects.filter(battle=battle).values_list("kind", flat=True)) == ["forfeit"]
    assert "It is not your turn." in answer  # the turn the referee pressed for was lost
    assert f'name="version" value="{version + 1}"' in answer


def test_a_page_asks_for_the_battle_once_when_nothing_is_due(running, django_assert_num_queries):
    battle, client = running
    page = reverse("games:referee_clock", args=[battle.pk])
    # session, user, gate battle with the appointments, the match's battles, the news.
    with django_assert_num_queries(5):
        assert client.get(page, **HX).status_code == 200


def test_a_page_after_the_deadline_shows_the_settled_battle(running):
    battle, client = running
    page = reverse("games:referee_clock", args=[battle.pk])
    with time_machine.travel(battle.deadline + timedelta(seconds=1), tick=False):
        answer = unescape(client.get(page, **HX).text)
    assert f'data-version="{battle.clock_version + 1}"' in answer
    assert "Time ran out" in answer


def test_a_move_pressed_twice_after_a_pause_for_the_page_still_tells_of_the_pause(running):
    """A second "moved" for a move already applied is refused (the move is applied once)
    and answered with the battle as stored, whose last write is not a move of this
    press: the panel's news is read and tells of the pause."""
    battle, client = running
    t0 = timezone.now().replace(microsecond=0)
    with time_machine.travel(t0, tick=False):
        version = Battle.objects.get(pk=battle.pk).clock_version
        press(client, battle, version)
        beat = reverse("games:referee_beat", args=[battle.pk])
        client.post(beat, {"version": str(version + 1)})
    away_at = t0 + timedelta(milliseconds=THRESHOLD_MS + 1_000)
    assert referees.check(via=ClockEvent.Via.SWEEP, now=away_at) == 1
    with time_machine.travel(away_at + timedelta(seconds=7), tick=False):
        client.post(beat, {"version": str(version + 2)})  # back: resumed
        assert Battle.objects.get(pk=battle.pk).status == Battle.Status.RUNNING
        answer = unescape(press(client, battle, version).text)  # the same move again
    assert Move.objects.filter(battle=battle, clock_version_before=version).count() == 1
    assert "The clock was paused while this page was away" in answer
