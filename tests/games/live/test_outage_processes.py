"""Outages with the real processes (issue 20): Redis, and separately gunicorn, killed for
30 s in the middle of timed battles, with a clock worker, beat, gunicorn (pages) and
uvicorn (the events process, as the Procfile runs it) against their own redis-server.

What must hold: the pages answer while Redis is down; no turn that overlapped the
outage is forfeited; every battle paused for it resumes with its turn replayed and play
goes on; no expiry is applied twice.

Scaled turns (think 1.0 s, move 0.5 s, grace 50 ms) give a dozen turns before each outage.
"""

from __future__ import annotations

import time
from datetime import timedelta
from urllib.request import Request, urlopen

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.models.heartbeat import WebHeartbeat
from games.models.history import ClockEvent, Move
from games.rules import clock
from tests.factories import make_match
from tests.processes import free_port, gunicorn_proc, port_open, procfile_env, uvicorn_proc
from tests.processes import wait_for as wait

pytestmark = [pytest.mark.clock, pytest.mark.django_db(transaction=True)]

OUTAGE_S = 30
TURN = timedelta(milliseconds=1_550)  # think + move + grace: a forfeited turn's length


def get(url: str, cookie: str = "") -> int:
    request = Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urlopen(request, timeout=10) as response:
            return response.status
    except OSError as exc:  # refused, reset or timed out (a read timeout is no URLError)
        return getattr(exc, "code", 0)


@pytest.fixture
def hall(cluster_factory, throwaway_redis, tmp_path):
    """A site on its own Redis: clock worker, beat, gunicorn and uvicorn (events)."""
    cluster = cluster_factory(workers=1, redis_url=throwaway_redis.url)
    web_port, events_port = free_port(), free_port()
    web = gunicorn_proc(cluster.env, tmp_path, web_port, workers=2)
    events = uvicorn_proc(cluster.env | procfile_env("events"), tmp_path, events_port)
    for p in (web, events):
        p.start()
    wait(lambda: port_open(web_port), timeout=30, what="gunicorn")
    wait(WebHeartbeat.objects.exists, timeout=30, what="the first web heartbeat")
    yield cluster, throwaway_redis, web, f"http://127.0.0.1:{web_port}"
    for p in (web, events):
        p.stop()


def start_battles(n: int) -> tuple[list[int], str]:
    matches = make_match(tables=n, move_unit="ply", max_consecutive_forfeits=999)
    ids = []
    for m in matches:
        b1, _ = create_battles(m, mode=Battle.Mode.OTB, now=timezone.now())
        ids.append(start_battle(b1.pk, now=timezone.now()).pk)
    return ids, matches[0].round.tournament.slug


def forfeits(ids: list[int]) -> list[ClockEvent]:
    return list(ClockEvent.objects.filter(battle_id__in=ids, kind=clock.TURN_EXPIRED))


def assert_the_outage_decided_nothing(ids: list[int], down_at, up_at) -> None:
    """No forfeited turn overlapped [down_at, up_at]; each battle paused once for it and
    resumed; play went on; nothing applied twice."""
    expired = forfeits(ids)
    overlapping = [
        (e.battle_id, e.ply, e.due_at)
        for e in expired
        if e.due_at > down_at and e.due_at - TURN < up_at  # the turn ran into the outage
    ]
    assert overlapping == []
    assert len(expired) == len({(e.battle_id, e.ply) for e in expired})
    assert Move.objects.filter(battle_id__in=ids, kind=Move.Kind.FORFEIT).count() == len(expired)
    paused = ClockEvent.objects.filter(battle_id__in=ids, kind=clock.OUTAGE_PAUSE)
    assert sorted(paused.values_list("battle_id", flat=True)) == sorted(ids)
    assert all(down_at < e.applied_at < up_at for e in paused)
    resumed = ClockEvent.objects.filter(battle_id__in=ids, kind="resumed", detail="outage over")
    assert sorted(resumed.values_list("battle_id", flat=True)) == sorted(ids)
    assert all(e.applied_at >= up_at for e in resumed)
    after = [e for e in expired if e.applied_at > up_at]
    assert {e.battle_id for e in after} == set(ids), "play goes on after the outage"


def test_redis_killed_for_30_s_pages_answer_and_no_turn_is_forfeited(hall):
    cluster, redis_server, _web, base = hall
    ids, slug = start_battles(4)
    user = get_user_model().objects.create_user("watcher", password="pw-watcher-123")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    cookie = f"sessionid={session.session_key}"
    wait(lambda: len(forfeits(ids)) >= 8, timeout=30, what="play before the outage")

    down_at = timezone.now()
    redis_server.kill()
    statuses = {}
    for path in ("/", f"/t/{slug}/", f"/t/{slug}/standings/", f"/battles/{ids[0]}/"):
        statuses[path] = get(base + path)
        statuses[f"{path} (logged in)"] = get(base + path, cookie)
    paused = wait(
        lambda: Battle.objects.filter(pk__in=ids, paused_reason=clock.REASON_OUTAGE).count() == 4,
        timeout=10,
        what="every battle paused for the outage",
    )
    assert paused
    time.sleep(OUTAGE_S - (timezone.now() - down_at).total_seconds())
    assert statuses == dict.fromkeys(statuses, 200)
    up_at = timezone.now()  # before it answers: no heartbeat can be older than this
    redis_server.start()
    wait(
        lambda: len({e.battle_id for e in forfeits(ids) if e.applied_at > up_at}) == 4,
        timeout=30,
        what="play after the outage",
    )
    assert_the_outage_decided_nothing(ids, down_at, up_at)


def test_gunicorn_killed_for_30_s_no_turn_is_forfeited_and_play_resumes(hall):
    _cluster, _redis, web, base = hall
    port = int(base.rsplit(":", 1)[1])
    ids, _slug = start_battles(4)
    wait(lambda: len(forfeits(ids)) >= 8, timeout=30, what="play before the outage")

    down_at = timezone.now()
    web.kill()
    wait(
        lambda: Battle.objects.filter(pk__in=ids, paused_reason=clock.REASON_OUTAGE).count() == 4,
        timeout=10,
        what="every battle paused for the outage",
    )
    assert not port_open(port)  # nobody can reach the site
    time.sleep(OUTAGE_S - (timezone.now() - down_at).total_seconds())
    up_at = timezone.now()
    web.start()
    wait(lambda: get(base + "/") == 200, timeout=30, what="gunicorn back")
    wait(
        lambda: len({e.battle_id for e in forfeits(ids) if e.applied_at > up_at}) == 4,
        timeout=30,
        what="play after the outage",
    )
    assert_the_outage_decided_nothing(ids, down_at, up_at)
