"""The engine league (``play.league``): the bots' own pool, folded from their rated matches
against each other exactly as ``ratings.periods.fold`` folds the same periods; people's
matches and a bot's against a person are not in it; won, drawn, lost by the differential;
one query however many bots and matches."""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from play import league as league_lib
from play.league import RECENT, league
from ratings.periods import Period, RatedMatch, display, fold, score_from_differential
from tests.factories import UserFactory
from tests.play.league_support import bot, ended

pytestmark = pytest.mark.django_db


def test_the_doctests_hold():
    assert doctest.testmod(league_lib).failed == 0


def test_the_pool_folds_the_bot_matches_in_end_then_id_order_as_fold_does():
    now = timezone.now()
    x, y, z = bot(username="xeno"), bot(username="yara"), bot(username="zed")
    t = now - timedelta(days=40)
    # Written out of order: the fold's order is (ended_at, id), ties by id.
    late = ended(z, x, ended_at=t + timedelta(days=35), diff=-2)
    tie_1 = ended(x, y, ended_at=t, diff=12)
    tie_2 = ended(y, z, ended_at=t, diff=0)
    mid = ended(y, x, ended_at=t + timedelta(days=1), diff=3)
    expected = fold(
        [
            Period(m.ended_at, (0, m.pk), (RatedMatch(a.pk, b.pk, score_from_differential(d)),))
            for m, a, b, d in [
                (tie_1, x, y, 12),
                (tie_2, y, z, 0),
                (mid, y, x, 3),
                (late, z, x, -2),
            ]
        ]
    ).states
    result = league("thud", now=now)
    assert {line.user_id: line.rating for line in result.lines} == {
        u: s.rating for u, s in expected.items()
    }
    ratings = [line.rating.rating for line in result.lines]
    assert ratings == sorted(ratings, reverse=True)
    assert [line.shown for line in result.lines] == [display(line.rating) for line in result.lines]
    assert [m.match_id for m in result.recent] == [late.pk, mid.pk, tie_2.pk, tie_1.pk]


def test_won_drawn_lost_are_counted_from_the_differential_of_the_first_bot():
    now = timezone.now()
    x, y = bot(username="xeno"), bot(username="yara")
    ended(x, y, ended_at=now - timedelta(hours=3), diff=5)  # x won
    ended(y, x, ended_at=now - timedelta(hours=2), diff=0)  # drawn
    ended(y, x, ended_at=now - timedelta(hours=1), diff=1)  # y won
    ended(x, y, ended_at=now - timedelta(minutes=30), diff=-4)  # y won
    lines = {line.name: line for line in league("thud", now=now).lines}
    assert [(n, x.played, x.won, x.drawn, x.lost) for n, x in sorted(lines.items())] == [
        ("xeno", 4, 1, 1, 2),
        ("yara", 4, 2, 1, 1),
    ]


def test_people_bot_against_person_unrated_unfinished_other_game_and_future_are_left_out():
    now = timezone.now()
    x, y = bot(username="xeno"), bot(username="yara")
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    t = now - timedelta(hours=1)
    counted = ended(x, y, ended_at=t, diff=2)
    ended(ann, bob, ended_at=t, diff=3)  # people's pool
    ended(x, ann, ended_at=t, diff=1)  # a bot against a person (rated by hand)
    ended(bob, y, ended_at=t, diff=-1)
    ended(x, y, ended_at=t, diff=2, rated=False)
    ended(x, y, ended_at=t, diff=2, game="cavalli")
    ended(x, y, ended_at=None, diff=None, status="playing")
    ended(x, y, ended_at=now + timedelta(minutes=1), diff=2)  # not final at ``now``
    result = league("thud", now=now)
    assert [m.match_id for m in result.recent] == [counted.pk]
    assert sorted(line.name for line in result.lines) == ["xeno", "yara"]
    assert [line.played for line in result.lines] == [1, 1]
    assert [line.name for line in league("cavalli", now=now).lines] == ["xeno", "yara"]


def test_no_bot_match_no_line():
    ended(UserFactory(), UserFactory(), ended_at=timezone.now(), diff=1)
    assert league("thud", now=timezone.now()) == league_lib.League("thud", (), ())


def test_equal_ratings_sort_by_name():
    now = timezone.now()
    a, b, c, d = (bot(username=n) for n in ("delta", "Bravo", "charlie", "alpha"))
    ended(a, b, ended_at=now - timedelta(hours=1), diff=0)
    ended(c, d, ended_at=now - timedelta(hours=1), diff=0)
    assert [line.name for line in league("thud", now=now).lines] == [
        "alpha",
        "Bravo",
        "charlie",
        "delta",
    ]


def test_the_recent_results_are_the_last_twenty_latest_first_with_battle_one():
    now = timezone.now()
    x, y = bot(), bot()
    made = [ended(x, y, ended_at=now - timedelta(minutes=100 - i), diff=i - 10) for i in range(25)]
    recent = league("thud", now=now).recent
    assert len(recent) == RECENT == 20
    assert [m.match_id for m in recent] == [m.pk for m in reversed(made[-20:])]
    first = recent[0]
    assert (first.battle_1, first.differential_a, first.name_a, first.name_b) == (
        made[-1].battle_1_id,
        14,
        x.username,
        y.username,
    )
    assert [line.played for line in league("thud", now=now).lines] == [25, 25]


def _matches_among(bots, now):
    for i, (a, b) in enumerate(zip(bots, bots[1:] + bots[:1], strict=True)):
        ended(a, b, ended_at=now - timedelta(minutes=60 - i), diff=(i % 3) - 1)
        ended(b, a, ended_at=now - timedelta(minutes=30 - i), diff=i)


@pytest.mark.parametrize("n", [2, 6])
def test_the_queries_do_not_grow_with_bots_or_matches(n):
    now = timezone.now()
    _matches_among([bot() for _ in range(n)], now)
    with CaptureQueriesContext(connection) as queries:
        result = league("thud", now=now)
    assert len(result.lines) == n
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]
