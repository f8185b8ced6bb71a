"""Redis accelerates, it never gates: with nothing listening where Redis should be, every
cache call answers (a miss, or the local fallback) and every page still renders.

"Redis down" here is a real refused connection: the caches point at a port on which
nothing listens. The real-process outage (a redis-server killed for 30 s during timed
battles) is ``tests/games/live/test_outages.py``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management import call_command
from django.utils import timezone

from tests.crawler import crawl
from thud_site import limits


def test_without_redis_the_default_cache_misses_and_drops_writes(redis_down):
    cache = caches["default"]
    cache.set("k", 1)
    assert cache.get("k") is None
    assert cache.get("k", "fallback") == "fallback"
    assert cache.get_many(["k"]) == {}
    assert cache.add("k", 1) is False
    assert cache.set_many({"a": 1}) == ["a"]
    with pytest.raises(ValueError):
        cache.incr("k")
    assert cache.redis_down


def test_without_redis_the_limits_cache_counts_in_this_process(redis_down):
    assert [limits.count("test", "someone", window_s=60) for _ in range(3)] == [1, 2, 3]
    assert limits.allow("test", "other", limit=1, window_s=60)
    assert not limits.allow("test", "other", limit=1, window_s=60)
    limits.forget("test", "someone")
    assert limits.count("test", "someone", window_s=60) == 1


def test_with_redis_the_cache_is_redis(settings):
    cache = caches["default"]
    cache.set("test-cache-present", 7, 5)
    assert cache.get("test-cache-present") == 7
    assert not cache.redis_down


@pytest.mark.django_db
def test_login_and_its_limit_work_without_redis(client, redis_down, password):
    user = get_user_model().objects.create_user("alice", password=password)
    for _ in range(5):
        assert client.post("/accounts/login/", {"username": "alice", "password": "x"}).status_code
    refused = client.post("/accounts/login/", {"username": "alice", "password": password})
    assert refused.status_code == 200 and b"Too many failed" in refused.content
    other = client.post(
        "/accounts/login/", {"username": "alice", "password": password}, REMOTE_ADDR="10.9.9.9"
    )
    assert other.status_code == 302
    assert client.get("/").wsgi_request.user == user


@pytest.mark.django_db
@pytest.mark.parametrize("username", [None, "organiser", "player1"])
def test_every_reachable_page_renders_without_redis(client, redis_down, username):
    call_command("load_demo", verbosity=0)
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    seen = crawl(client).statuses
    assert {url: s for url, s in seen.items() if s >= 500} == {}
    assert len(seen) > 5


@pytest.mark.django_db
def test_moves_and_results_are_accepted_without_redis(
    client, redis_down, django_capture_on_commit_callbacks
):
    from games.battles.starting import create_casual_battle
    from games.models.battle import Battle
    from tests.factories import MatchFactory, UserFactory
    from tournaments.models.results import ResultVersion

    first, second = UserFactory(), UserFactory()
    battle = create_casual_battle(
        game="thud",
        first=first,
        second=second,
        timing=Battle.Timing.CORRESPONDENCE,
        now=timezone.now(),
    )
    client.force_login(first)
    with django_capture_on_commit_callbacks(execute=True) as after_commit:
        moved = client.post(
            f"/battles/{battle.pk}/move/",
            {"from": "F1", "to": "F5", "version": battle.clock_version},
        )
    assert after_commit  # the publish to Redis ran, and failed quietly
    assert moved.status_code == 302
    assert Battle.objects.get(pk=battle.pk).ply == 1

    match = MatchFactory()
    referee = UserFactory()
    match.round.tournament.referees.add(referee)
    client.force_login(referee)
    slug = match.round.tournament.slug
    with django_capture_on_commit_callbacks(execute=True):
        entered = client.post(
            f"/referee/t/{slug}/matches/{match.pk}/result",
            {
                "battle1_first": 12,
                "battle1_second": 3,
                "battle2_first": 9,
                "battle2_second": 4,
                "lock_version": match.lock_version,
                "enter": "",
            },
        )
    assert entered.status_code in (200, 302)
    assert ResultVersion.objects.filter(match=match).count() == 1
