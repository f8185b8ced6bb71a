"""Joining a battle that waits for its players, and no-show claims (database).

One join starts nothing and forfeits nothing however long it waits; the second join
starts the clock once; two joining at once start it once (real row locks); a no-show
claim is refused before the window ends or by the player who did not join, and then
cancels a casual battle or hands a tournament battle to its referee, with the claim kept.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.battles import joining
from games.battles.errors import NotAllowed
from games.battles.play import accept_end, offer_end
from games.battles.referee import resume
from games.battles.settle import settle
from games.battles.starting import create_battles, create_casual_battle
from games.events import publish
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.models.reasons import NO_SHOW, NO_SHOW_CLAIMED
from games.rules import clock
from play import queries
from tests.factories import UserFactory, make_match
from tests.tournaments.results.test_workflow_concurrency import race

pytestmark = pytest.mark.django_db


@pytest.fixture
def t0():
    return timezone.now().replace(microsecond=0)


@pytest.fixture
def waiting(t0):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    return create_casual_battle(
        game="thud", first=alice, second=bob, timing="quickfire", await_players=True, now=t0
    )


def events(battle, kind):
    return list(ClockEvent.objects.filter(battle=battle, kind=kind))


def test_an_accepted_quickfire_battle_waits_pending_without_a_clock(waiting):
    assert (waiting.status, waiting.awaits_players, waiting.deadline) == ("pending", True, None)
    assert events(waiting, ClockEvent.Kind.STARTED) == []


def test_a_correspondence_battle_starts_at_once_even_when_asked_to_wait(t0):
    b = create_casual_battle(
        game="thud",
        first=UserFactory(),
        second=UserFactory(),
        timing="correspondence",
        await_players=True,
        now=t0,
    )
    assert (b.status, b.awaits_players) == ("running", False)


def test_one_player_joined_loses_no_turn_however_long_the_other_stays_away(waiting, t0):
    joining.join(waiting.pk, side="dwarf", now=t0)
    for days in (1, 30, 365):
        settle(waiting.pk, via=ClockEvent.Via.SWEEP, now=t0 + timedelta(days=days))
    b = Battle.objects.get(pk=waiting.pk)
    assert (b.status, b.ply, b.deadline) == ("pending", 0, None)
    assert b.first_joined_at == t0 and b.second_joined_at is None
    assert not Move.objects.filter(battle=b).exists()


def test_a_join_bumps_the_version_once_and_a_double_tap_joins_once(waiting, t0):
    v0 = waiting.clock_version
    joining.join(waiting.pk, side="troll", now=t0)
    joining.join(waiting.pk, side="troll", now=t0 + timedelta(seconds=5))
    b = Battle.objects.get(pk=waiting.pk)
    assert b.clock_version == v0 + 1
    assert b.second_joined_at == t0
    assert [e.detail for e in events(b, ClockEvent.Kind.JOINED)] == ["troll"]


def test_the_second_join_starts_the_clock_then_and_there(waiting, t0):
    joining.join(waiting.pk, side="troll", now=t0)
    later = t0 + timedelta(seconds=40)
    joining.join(waiting.pk, side="dwarf", now=later)
    b = Battle.objects.get(pk=waiting.pk)
    assert (b.status, b.side_to_move, b.awaits_players) == ("running", "dwarf", False)
    assert b.turn_started_at == later
    assert b.deadline == later + timedelta(milliseconds=b.think_ms + b.move_ms)
    assert b.board  # the opening position is set up
    assert len(events(b, ClockEvent.Kind.STARTED)) == 1
    joining.join(waiting.pk, side="dwarf", now=later + timedelta(seconds=1))  # nothing
    assert Battle.objects.get(pk=waiting.pk).clock_version == b.clock_version


def test_the_first_join_tells_the_opponent_on_their_channel(
    waiting, t0, django_capture_on_commit_callbacks
):
    sub = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    sub.subscribe(publish.user_channel(waiting.first_user_id))
    assert sub.get_message(timeout=2)["type"] == "subscribe"
    with django_capture_on_commit_callbacks(execute=True):
        joining.join(waiting.pk, side="troll", now=t0)
    message = sub.get_message(timeout=2)
    sub.close()
    notice = json.loads(message["data"])
    assert notice == {
        "kind": "waiting",
        "battle": waiting.pk,
        "url": f"/battles/{waiting.pk}/",
        "from": "bob",
    }


def test_a_no_show_claim_before_the_window_ends_is_refused_and_changes_nothing(waiting, t0):
    joining.join(waiting.pk, side="dwarf", now=t0)
    version = Battle.objects.get(pk=waiting.pk).clock_version
    with pytest.raises(NotAllowed, match="still has time to join"):
        joining.claim_no_show(
            waiting.pk, side="dwarf", by_name="alice", now=t0 + timedelta(seconds=59)
        )
    b = Battle.objects.get(pk=waiting.pk)
    assert (b.status, b.clock_version) == ("pending", version)
    assert events(b, ClockEvent.Kind.NO_SHOW) == []


def test_the_absent_player_cannot_claim_the_present_one_a_no_show(waiting, t0):
    joining.join(waiting.pk, side="dwarf", now=t0)
    with pytest.raises(NotAllowed, match="Join the battle first"):
        joining.claim_no_show(waiting.pk, side="troll", by_name="bob", now=t0 + timedelta(hours=1))
    assert Battle.objects.get(pk=waiting.pk).status == "pending"


def test_a_casual_no_show_cancels_the_battle_with_no_winner(waiting, t0):
    joining.join(waiting.pk, side="dwarf", now=t0)
    joining.claim_no_show(waiting.pk, side="dwarf", by_name="alice", now=t0 + timedelta(seconds=60))
    b = Battle.objects.get(pk=waiting.pk)
    assert (b.status, b.finished_reason, b.winner, b.is_cancelled) == (
        "finished",
        NO_SHOW,
        "",
        True,
    )
    (claim,) = events(b, ClockEvent.Kind.NO_SHOW)
    assert (claim.detail, claim.applied_at) == (
        "claimed by dwarf (alice)",
        t0 + timedelta(seconds=60),
    )
    # Not played, so not counted as a draw in the statistics.
    assert not queries.finished_online().filter(pk=b.pk).exists()
    with pytest.raises(NotAllowed):  # a second claim: the battle no longer waits
        joining.claim_no_show(
            waiting.pk, side="dwarf", by_name="alice", now=t0 + timedelta(seconds=61)
        )


def test_a_tournament_no_show_waits_for_the_referee_who_decides_as_usual(t0):
    match = make_match(join_window_s=90)[0]
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=t0)
    joining.open_for_players(b1.pk, side="troll", now=t0)
    b = Battle.objects.get(pk=b1.pk)
    assert (b.status, b.awaits_players, b.second_joined_at) == ("pending", True, t0)
    window = timedelta(milliseconds=b.join_window_ms)
    assert window == timedelta(seconds=90)  # the tournament's setting, copied
    with pytest.raises(NotAllowed):
        joining.claim_no_show(b1.pk, side="troll", by_name="P-b", now=t0 + timedelta(seconds=89))
    joining.claim_no_show(b1.pk, side="troll", by_name="P-b", now=t0 + window)
    b = Battle.objects.get(pk=b1.pk)
    assert (b.status, b.paused_reason, b.deadline) == ("needs_referee", NO_SHOW_CLAIMED, None)
    assert b.board
    assert events(b, ClockEvent.Kind.NO_SHOW)[0].detail == "claimed by troll (P-b)"
    resume(b1.pk, now=t0 + window + timedelta(seconds=5))  # the referee lets it start
    assert Battle.objects.get(pk=b1.pk).status == clock.RUNNING


def test_an_untimed_tournament_battle_starts_when_opened(t0):
    match = make_match(variant="classic")[0]
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=t0)
    joining.open_for_players(b1.pk, side="dwarf", now=t0)
    assert Battle.objects.get(pk=b1.pk).status == "running"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks")
@pytest.mark.timeout(60)
def test_two_players_joining_at_once_start_the_clock_once():
    for _attempt in range(5):
        now = timezone.now()
        b = create_casual_battle(
            game="thud",
            first=UserFactory(),
            second=UserFactory(),
            timing="quickfire",
            await_players=True,
            now=now,
        )
        outcomes = race(
            lambda b=b, now=now: joining.join(b.pk, side="dwarf", now=now),
            lambda b=b, now=now: joining.join(b.pk, side="troll", now=now),
        )
        assert not [o for o in outcomes if isinstance(o, Exception)]
        b.refresh_from_db()
        assert b.status == "running"
        assert len(events(b, ClockEvent.Kind.STARTED)) == 1
        assert len(events(b, ClockEvent.Kind.JOINED)) == 2


def test_a_published_round_tells_each_player_their_match_is_ready(
    django_capture_on_commit_callbacks, monkeypatch
):
    from tournaments.models.rounds import Round
    from tournaments.rounds.play import publish_round

    monkeypatch.setattr(publish, "_publisher", None)
    match = make_match()[0]
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.DRAFT)
    a, b = match.player_a.player, match.player_b.player
    sub = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    sub.subscribe(publish.user_channel(a.user_id), publish.user_channel(b.user_id))
    for _ in range(2):
        assert sub.get_message(timeout=2)["type"] == "subscribe"
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(Round.objects.get(pk=match.round_id), now=timezone.now())
    got = {}
    for _ in range(2):
        message = sub.get_message(timeout=2)
        got[message["channel"].decode()] = json.loads(message["data"])
    sub.close()
    url = f"/battles/match/{match.pk}/"
    assert got == {
        publish.user_channel(a.user_id): {
            "kind": "round",
            "match": match.pk,
            "url": url,
            "from": b.name,
        },
        publish.user_channel(b.user_id): {
            "kind": "round",
            "match": match.pk,
            "url": url,
            "from": a.name,
        },
    }


def test_battle_2_waits_for_both_players_and_tells_them_when_battle_1_ends(
    t0, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(publish, "_publisher", None)
    match = make_match()[0]
    b1, b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=t0)
    joining.open_for_players(b1.pk, side="dwarf", now=t0)
    joining.join(b1.pk, side="troll", now=t0)
    a, b = match.player_a.player, match.player_b.player
    sub = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    sub.subscribe(publish.user_channel(a.user_id), publish.user_channel(b.user_id))
    for _ in range(2):
        assert sub.get_message(timeout=2)["type"] == "subscribe"
    later = t0 + timedelta(seconds=30)
    with django_capture_on_commit_callbacks(execute=True):
        offer_end(b1.pk, side="dwarf", now=later)
        accept_end(b1.pk, side="troll", now=later)
    assert Battle.objects.get(pk=b1.pk).status == "finished"
    b2 = Battle.objects.get(pk=b2.pk)
    # No clock runs for battle 2 until both are on its page, however long that takes.
    assert (b2.status, b2.awaits_players, b2.deadline) == ("pending", True, None)
    assert events(b2, ClockEvent.Kind.STARTED) == []
    got: dict[str, list] = {}
    for _ in range(4):
        message = sub.get_message(timeout=2)
        got.setdefault(message["channel"].decode(), []).append(json.loads(message["data"]))
    sub.close()
    url = f"/battles/{b2.pk}/"
    # Each is told battle 1 ended (their program's event stream), then battle 2 waits.
    ended = {"kind": "finished", "battle": b1.pk, "url": f"/battles/{b1.pk}/", "from": ""}
    assert got == {
        publish.user_channel(a.user_id): [
            ended,
            {"kind": "next", "battle": b2.pk, "url": url, "from": b.name},
        ],
        publish.user_channel(b.user_id): [
            ended,
            {"kind": "next", "battle": b2.pk, "url": url, "from": a.name},
        ],
    }
    joining.join(b2.pk, side="dwarf", now=later + timedelta(minutes=5))
    joining.join(b2.pk, side="troll", now=later + timedelta(minutes=6))
    b2 = Battle.objects.get(pk=b2.pk)
    assert b2.status == "running" and b2.turn_started_at == later + timedelta(minutes=6)
