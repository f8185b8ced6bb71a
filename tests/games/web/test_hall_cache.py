"""The hall screen's live battles paid for once per change (games/web/hall_cache.py,
issue 44): the fragment holds no moment, so it is the same for every screen until a
battle of the round changes; the first read after any change (a move, a pause, a resume,
an expiry, a confirmed result, a player's name, a new round) shows it, exactly as a
rendering without any cache does; a screen that holds it is answered 304, with the
server's time; its queries do not grow with the battles."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.battles import joining, referee
from games.battles.play import submit_move
from games.battles.settle import settle
from games.battles.starting import create_battles, start_battle
from games.live.outages import beat
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.web import hall_cache, presenters_hall
from tests.factories import UserFactory, make_match
from tournaments.for_games import current_round
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.organising.entries import current_values, edit_entry
from tournaments.results.entry import confirm_result, enter_result
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def now():
    return timezone.now()


def playing(tables: int = 2) -> Tournament:
    """Round 1 of a timed tournament: battle 1 of every table running online (battle 2
    waits for it)."""
    # Turns of 20 minutes: none ends on its own during a test on a busy machine.
    matches = make_match(tables=tables, rounds=3, think_ms=600_000, move_ms=600_000)
    for m in matches:
        b1, _b2 = create_battles(m, mode=Battle.Mode.ONLINE, now=now())
        if b1.status == Battle.Status.PENDING:
            start_battle(b1.pk, now=now())
    return matches[0].round.tournament


def first_battle(t: Tournament) -> Battle:
    return Battle.objects.filter(match__round__tournament=t).order_by("match__table", "number")[0]


def get(client, t: Tournament, **headers):
    return client.get(reverse("games:hall_battles", args=[t.slug]), **HTMX, **headers)


def shown(client, t: Tournament) -> str:
    response = get(client, t)
    assert response.status_code == 200
    return response.content.decode()


def rendered_afresh(client, t: Tournament, settings) -> str:
    settings.CACHES = settings.CACHES | {
        "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    }
    try:
        return shown(client, t)
    finally:
        del settings.CACHES


# --- the changes ---------------------------------------------------------------------------


def moved(t: Tournament) -> None:
    b = first_battle(t)
    submit_move(b.pk, side=b.side_to_move, version=b.clock_version, notation="d F1-F2", now=now())


def paused(t: Tournament) -> None:
    referee.pause(first_battle(t).pk, now=now())


def resumed(t: Tournament) -> None:
    """Paused and resumed unread (a read between: the test after)."""
    b = first_battle(t)
    referee.pause(b.pk, now=now())
    referee.resume(b.pk, now=now() + timedelta(seconds=3))


def expired(t: Tournament) -> None:
    b = first_battle(t)
    late = b.deadline + timedelta(milliseconds=400)
    beat("test", now=late)  # the site was up at the deadline: the turn is forfeited
    after = settle(b.pk, via=ClockEvent.Via.SWEEP, now=late)
    assert after.clock_version > b.clock_version


def result_confirmed(t: Tournament) -> None:
    m = Match.objects.get(round__tournament=t, round__number=1, table=1)
    first = enter_result(
        m, survivors=(17, 3, 12, 8), by=UserFactory(), expected_lock_version=None, now=now()
    )
    confirm_result(m, version_id=first.pk, by=UserFactory(), expected_lock_version=None, now=now())


def name_edited(t: Tournament) -> None:
    entry = Match.objects.get(round__tournament=t, round__number=1, table=1).player_a
    values = current_values(entry)
    renamed = type(values)(
        "Rincewind", values.club, values.country, values.rating, values.seed or 1
    )
    edit_entry(entry, values=renamed, by=None, now=now())


def new_round(t: Tournament) -> None:
    for m in Match.objects.filter(round__tournament=t, round__number=1):
        Battle.objects.filter(match=m).update(status=Battle.Status.FINISHED)
        record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import", now=now())
    round_2 = publish_round(pair_next_round(t, by=None, now=now()), now=now())
    m = Match.objects.filter(round=round_2).order_by("table")[0]
    b1, _b2 = create_battles(m, mode=Battle.Mode.ONLINE, now=now())
    if b1.status == Battle.Status.PENDING:
        start_battle(b1.pk, now=now())


CHANGES: dict[str, Callable[[Tournament], None]] = {
    "move": moved,
    "pause": paused,
    "resume": resumed,
    "expiry": expired,
    "result-confirmed": result_confirmed,
    "name-edited": name_edited,
    "new-round": new_round,
}


@pytest.mark.parametrize("change", CHANGES)
def test_the_first_read_after_a_change_shows_it(client, settings, change):
    t = playing()
    before = shown(client, t)
    assert shown(client, t) == before  # cached, and a screen sees it
    CHANGES[change](t)
    after = shown(client, t)
    assert after == rendered_afresh(client, t, settings)
    assert after != before
    if change == "name-edited":
        assert "Rincewind" in after


def test_a_resume_after_a_read_of_the_pause_shows_the_clock_again(client, settings):
    t = playing()
    b = first_battle(t)
    running = shown(client, t)
    referee.pause(b.pk, now=now())
    in_pause = shown(client, t)
    referee.resume(b.pk, now=now() + timedelta(seconds=3))
    after = shown(client, t)
    assert len({running, in_pause, after}) == 3
    assert after == rendered_afresh(client, t, settings)


def test_the_fragment_is_the_same_at_any_moment_until_a_battle_changes(client, settings):
    t = playing()
    settings.CACHES = settings.CACHES | {
        "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    }
    first = shown(client, t)  # rendered afresh, each time
    with time_machine.travel(now() + timedelta(seconds=7)):
        assert shown(client, t) == first
    b = first_battle(t)
    assert f'data-ends-ms="{int(b.deadline.timestamp() * 1000)}"' in first
    assert f'data-think-ends-ms="{int(b.think_ends_at.timestamp() * 1000)}"' in first


def test_a_change_of_one_battle_renders_its_line_alone(client, monkeypatch):
    t = playing(tables=3)
    shown(client, t)
    rendered: list[int] = []
    line = presenters_hall.hall_line
    monkeypatch.setattr(presenters_hall, "hall_line", lambda b: rendered.append(b.pk) or line(b))
    shown(client, t)
    assert rendered == []  # the whole fragment from the cache
    moved(t)
    shown(client, t)
    assert rendered == [first_battle(t).pk]


def test_a_screen_that_holds_the_fragment_is_answered_304_with_the_servers_time(client):
    t = playing()
    first = get(client, t)
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"] and int(first["X-Server-Now"]) > 0
    again = get(client, t, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    assert int(again["X-Server-Now"]) >= int(first["X-Server-Now"])
    moved(t)
    changed = get(client, t, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_each_language_gets_its_own_fragment(client):
    t = playing()
    url = reverse("games:hall_battles", args=[t.slug])
    nb = client.get(url + "?lang=nb", **HTMX).content.decode()
    it = client.get(url + "?lang=it", **HTMX).content.decode()
    assert "Nani" in it and "Nani" not in nb


# --- the queries do not grow with the battles ---------------------------------------------


def queries(client, t: Tournament) -> int:
    with CaptureQueriesContext(connection) as seen:
        assert get(client, t).status_code == 200
    return len(seen)


def test_the_queries_are_the_same_for_6_and_60_battles(client):
    counts = []
    for tables in (3, 30):
        t = playing(tables=tables)
        cold = queries(client, t)  # every line rendered
        warm = queries(client, t)  # the fragment from the cache
        moved(t)
        one = queries(client, t)  # one line rendered, the others from the cache
        counts.append((cold, warm, one))
    assert counts[0] == counts[1]
    assert counts[0][1] < counts[0][0]


def test_a_battle_opened_for_its_players_joins_the_hall_at_the_next_read(client, settings):
    """Opening a battle writes no version and, here, no later write than the round's
    last: only the count of shown battles tells the fragment it changed."""
    matches = make_match(tables=2, rounds=3, think_ms=600_000, move_ms=600_000)
    t = matches[0].round.tournament
    waiting, _ = create_battles(matches[0], mode=Battle.Mode.ONLINE, now=now())
    running, _ = create_battles(matches[1], mode=Battle.Mode.ONLINE, now=now())
    start_battle(running.pk, now=now())
    before = shown(client, t)
    assert f'data-battle="{waiting.pk}"' not in before
    joining.open_for_players(waiting.pk, side=None, now=now())
    after = shown(client, t)
    assert f'data-battle="{waiting.pk}"' in after
    assert after == rendered_afresh(client, t, settings)


def test_the_docstring_examples_hold():
    assert doctest.testmod(hall_cache).failed == 0


# --- one slide at a time --------------------------------------------------------------------


def slide(client, t: Tournament, index, **headers):
    url = reverse("games:hall_battles", args=[t.slug])
    return client.get(url, {"slide": index}, **HTMX, **headers)


def battles_by_table(t: Tournament) -> list[Battle]:
    return list(hall_cache.shown_battles(current_round(t)).order_by("match__table", "number"))


def test_a_screen_gets_the_lines_of_the_slide_it_shows_and_the_number_of_slides(client):
    t = playing(tables=14)  # 14 battles running: slides of 6, 6 and 2
    battles = battles_by_table(t)
    html = slide(client, t, 1).content.decode()
    assert html.count('class="hall-slide"') == 3
    assert [f'data-battle="{b.pk}"' in html for b in battles] == [False] * 6 + [True] * 6 + [
        False
    ] * 2
    assert "2/3" in html  # its place among the slides
    last = slide(client, t, 99).content.decode()  # the round has fewer now: the last
    assert [f'data-battle="{b.pk}"' in last for b in battles[12:]] == [True, True]
    assert last.count('class="hall-battle"') == 2


def test_a_change_on_another_slide_leaves_a_screens_slide_as_it_holds_it(client, settings):
    t = playing(tables=8)
    battles = battles_by_table(t)
    etag = slide(client, t, 0)["ETag"]
    b = battles[7]  # on slide 1
    submit_move(b.pk, side=b.side_to_move, version=b.clock_version, notation="d F1-F2", now=now())
    assert slide(client, t, 0, HTTP_IF_NONE_MATCH=etag).status_code == 304
    changed = slide(client, t, 1).content.decode()
    settings.CACHES = settings.CACHES | {
        "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    }
    assert changed == slide(client, t, 1).content.decode()  # as rendered afresh


@pytest.mark.parametrize("bad", ["-1", "two", "1.5", ""])
def test_a_slide_that_is_no_whole_number_from_0_is_refused_saying_so(client, bad):
    t = playing()
    answer = slide(client, t, bad)
    assert answer.status_code == 400
    assert "The slide is a whole number from 0." in answer.content.decode()


def test_the_refusal_is_in_the_screens_language(client):
    t = playing()
    url = reverse("games:hall_battles", args=[t.slug])
    answer = client.get(url, {"slide": "x", "lang": "nb"}, **HTMX)
    assert answer.status_code == 400
    assert "Lysbildet er et heltall fra 0 og oppover." in answer.content.decode()
