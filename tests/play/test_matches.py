"""Rated casual matches (``play.matches``): a challenge makes battle 1, its end opens battle
2 with the sides swapped, battle 2's end writes the match's result once and tells the
ratings; a match not played out gives no rating period (``PlayConfig.rated_periods``)."""

from __future__ import annotations

import doctest
import json
from datetime import timedelta

import pytest
import redis
from django.apps import apps
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.battles import joining
from games.battles.play import accept_end, offer_end, submit_move
from games.battles.starting import create_casual_battle
from games.events import publish
from games.models.battle import Battle
from play import challenges, matches, rating_hook
from play.models import CasualMatch
from tests.factories import UserFactory
from tournaments import for_games
from tournaments.models.ratings import RatedPeriod, RatingChange, SiteRating

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook_calls(monkeypatch):
    """Every call of the ratings hook, in order (instead of the ratings adapter it calls)."""
    calls: list[tuple[str, object]] = []
    monkeypatch.setattr(
        rating_hook, "on_rated_match_end", lambda game, now: calls.append((game, now))
    )
    return calls


def rated_match(game="thud", timing="quickfire", *, now, move_limit=30):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    c = challenges.create_challenge(
        by=alice,
        opponent=bob,
        game=game,
        timing=timing,
        first="challenger",
        move_limit=move_limit,
        rated_match=True,
        now=now,
    )
    battle = challenges.accept(c.pk, by=bob, now=now)
    return CasualMatch.objects.get(battle_1=battle)


#: A first move of a Thud battle (a match with no move played is not rated).
OPENING = ("d F1-F5",)


def play_to_end(battle_id: int, *, now, dwarves_lost: int = 0, moves=()) -> Battle:
    """Join both seats (a waiting battle), play ``moves``, optionally take dwarves off a
    Thud board, and end the battle by agreement at ``now``."""
    battle = Battle.objects.get(pk=battle_id)
    first, second = (info.key for info in battle.rules.sides)
    if battle.status == "pending":
        joining.join(battle_id, side=first, now=now)
        joining.join(battle_id, side=second, now=now)
    for text in moves:
        battle = Battle.objects.get(pk=battle_id)
        submit_move(
            battle_id,
            side=battle.side_to_move,
            version=battle.clock_version,
            notation=text,
            now=now,
        )
    if dwarves_lost:
        board = Battle.objects.get(pk=battle_id).board.replace("d", ".", dwarves_lost)
        Battle.objects.filter(pk=battle_id).update(board=board)
    offer_end(battle_id, side=first, now=now)
    return accept_end(battle_id, side=second, now=now)


def test_accepting_a_rated_challenge_makes_battle_1_of_a_match_waiting_for_both():
    now = timezone.now()
    m = rated_match(now=now)
    b1 = m.battle_1
    assert (m.user_a.username, m.user_b.username, m.game, m.rated) == ("alice", "bob", "thud", True)
    assert (m.status, m.battle_2, m.ended_at, m.differential_a) == ("playing", None, None, None)
    assert (b1.first_user_id, b1.second_user_id, b1.number) == (m.user_a_id, m.user_b_id, 1)
    assert (b1.status, b1.awaits_players) == ("pending", True)
    assert apps.get_app_config("play").rated_periods("thud") == []


def test_a_plain_challenge_still_makes_a_single_battle():
    now = timezone.now()
    alice, bob = UserFactory(), UserFactory()
    c = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=now
    )
    battle = challenges.accept(c.pk, by=bob, now=now)
    play_to_end(battle.pk, now=now)
    assert not CasualMatch.objects.exists()
    assert Battle.objects.count() == 1


@pytest.mark.parametrize("game", ["thud", "cavalli"])
@pytest.mark.parametrize(("move_limit", "max_plies"), [(24, 48), (30, 60)])
def test_battle_2_of_a_quickfire_match_keeps_the_move_limit(game, move_limit, max_plies):
    now = timezone.now()
    m = rated_match(game, now=now, move_limit=move_limit)
    assert m.battle_1.max_plies == max_plies
    play_to_end(m.battle_1_id, now=now + timedelta(seconds=5))
    m.refresh_from_db()
    assert m.battle_2 is not None and m.battle_2.max_plies == max_plies


def test_battle_2_of_a_correspondence_match_has_no_move_limit_either():
    now = timezone.now()
    m = rated_match("cavalli", "correspondence", now=now, move_limit=24)
    play_to_end(m.battle_1_id, now=now + timedelta(seconds=5))
    m.refresh_from_db()
    assert (m.battle_1.max_plies, m.battle_2.max_plies) == (None, None)


@pytest.mark.parametrize("game", ["thud", "cavalli"])
def test_battle_2_opens_when_battle_1_ends_sides_swapped_and_waits_for_both(
    game, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(publish, "_publisher", None)
    now = timezone.now()
    m = rated_match(game, now=now)
    sub = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    sub.subscribe(publish.user_channel(m.user_a_id))
    assert sub.get_message(timeout=2)["type"] == "subscribe"
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(m.battle_1_id, now=now + timedelta(seconds=5))
    # Battle 1's end, then battle 2 waiting: two notices, in that order.
    ended, message = sub.get_message(timeout=2), sub.get_message(timeout=2)
    sub.close()
    m.refresh_from_db()
    b1, b2 = m.battle_1, m.battle_2
    assert b2 is not None
    assert (b2.first_user_id, b2.second_user_id) == (b1.second_user_id, b1.first_user_id)
    assert (b2.number, b2.game, b2.timing, b2.board_seed) == (2, game, "quickfire", b1.board_seed)
    assert (b2.status, b2.awaits_players, b2.deadline) == ("pending", True, None)
    assert m.status == "playing" and m.ended_at is None
    assert json.loads(ended["data"]) == {
        "kind": "finished",
        "battle": b1.pk,
        "url": f"/battles/{b1.pk}/",
        "from": "",
    }
    assert json.loads(message["data"]) == {
        "kind": "next",
        "battle": b2.pk,
        "url": f"/battles/{b2.pk}/",
        "from": "bob",
    }
    # It starts only when both are there.
    first = b2.rules.sides[0].key
    joining.join(b2.pk, side=first, now=now + timedelta(seconds=6))
    assert Battle.objects.get(pk=b2.pk).status == "pending"


def test_an_untimed_correspondence_battle_2_starts_at_once():
    now = timezone.now()
    m = rated_match(timing="correspondence", now=now)
    assert m.battle_1.status == "running"
    play_to_end(m.battle_1_id, now=now)
    m.refresh_from_db()
    assert m.battle_2 is not None and m.battle_2.status == "running"
    assert m.battle_2.think_ms == m.battle_1.think_ms  # the same days per move


def test_battle_2_ending_writes_the_result_and_ended_at_once_and_tells_the_ratings_once(
    hook_calls, django_capture_on_commit_callbacks
):
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    end = t0 + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        # Bob, who has the dwarves in battle 2, loses one: Alice wins the match by 1
        # (Thud: a dwarf is worth 1, a troll 4; both battles otherwise equal).
        play_to_end(m.battle_2_id, now=end, dwarves_lost=1, moves=OPENING)
    m.refresh_from_db()
    assert (m.status, m.ended_at, m.differential_a) == ("ended", end, 1)
    assert m.winner == m.user_a and m.margin == 1
    assert hook_calls == [("thud", end)]
    # Once: the same end seen again (a redelivered signal, a second caller) changes nothing.
    with django_capture_on_commit_callbacks(execute=True):
        assert matches.end_match(m, now=end + timedelta(minutes=1)) is False
        matches.on_casual_battle_finished(Battle, battle=m.battle_2, now=end + timedelta(minutes=1))
    m.refresh_from_db()
    assert (m.ended_at, m.differential_a) == (end, 1)
    assert hook_calls == [("thud", end)]
    assert apps.get_app_config("play").rated_periods("thud") == [
        (m.pk, end, m.user_a_id, m.user_b_id, 1)
    ]
    assert apps.get_app_config("play").rated_periods("cavalli") == []


def test_a_rated_match_rates_both_players_once(django_capture_on_commit_callbacks):
    """The real hook: the match's end rates both players, once, as one period."""
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    end = t0 + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        # Alice wins the match by 1.
        play_to_end(m.battle_2_id, now=end, dwarves_lost=1, moves=OPENING)
    with django_capture_on_commit_callbacks(execute=True):
        matches.end_match(m, now=end + timedelta(minutes=1))  # seen again: nothing new
    ratings = {r.player.user.username: r for r in SiteRating.objects.select_related("player")}
    assert set(ratings) == {"alice", "bob"}
    assert [ratings[u].matches for u in ("alice", "bob")] == [1, 1]
    assert ratings["alice"].rating > 1500 > ratings["bob"].rating
    assert ratings["alice"].last_at == end
    assert RatedPeriod.objects.filter(game="thud").count() == 1
    assert RatingChange.objects.filter(game="thud").count() == 2
    assert not SiteRating.objects.filter(game="cavalli").exists()


def test_the_match_result_is_the_tournament_scoring_of_both_battles():
    t0 = timezone.now()
    m = rated_match(now=t0)
    # Alice (dwarves in battle 1) loses three dwarves; Bob loses one in battle 2: B by 2.
    play_to_end(m.battle_1_id, now=t0, dwarves_lost=3)
    m.refresh_from_db()
    play_to_end(m.battle_2_id, now=t0, dwarves_lost=1)
    m.refresh_from_db()
    assert m.differential_a == -2 and m.winner == m.user_b


def test_an_unrated_match_ends_without_telling_the_ratings(
    hook_calls, django_capture_on_commit_callbacks
):
    t0 = timezone.now()
    m = rated_match(now=t0)
    CasualMatch.objects.filter(pk=m.pk).update(rated=False)
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(m.battle_2_id, now=t0)
    m.refresh_from_db()
    assert (m.status, m.differential_a) == ("ended", 0)
    assert hook_calls == []
    assert apps.get_app_config("play").rated_periods("thud") == []


def test_a_no_show_in_battle_1_cancels_the_match_without_a_period(
    hook_calls, django_capture_on_commit_callbacks
):
    t0 = timezone.now()
    m = rated_match(now=t0)
    joining.join(m.battle_1_id, side="dwarf", now=t0)
    with django_capture_on_commit_callbacks(execute=True):
        joining.claim_no_show(
            m.battle_1_id, side="dwarf", by_name="alice", now=t0 + timedelta(hours=1)
        )
    m.refresh_from_db()
    assert (m.status, m.battle_2, m.ended_at, m.differential_a) == ("cancelled", None, None, None)
    assert Battle.objects.count() == 1
    assert hook_calls == []
    assert apps.get_app_config("play").rated_periods("thud") == []


@pytest.mark.parametrize("absent", ["alice", "bob"])
def test_a_no_show_in_battle_2_loses_the_match_which_is_rated(
    absent, hook_calls, django_capture_on_commit_callbacks, client
):
    # Alice (dwarves in battle 1) loses three dwarves: Bob leads the match by 3. Whoever
    # then stays away from battle 2 loses the match, and it is rated: the loser of battle
    # 1 cannot escape the rating by never opening battle 2 (nor is the leader's lead a
    # licence to stay away).
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0, dwarves_lost=3, moves=OPENING)
    m.refresh_from_db()
    present, side = ("bob", "dwarf") if absent == "alice" else ("alice", "troll")
    joining.join(m.battle_2_id, side=side, now=t0)
    end = t0 + timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        joining.claim_no_show(m.battle_2_id, side=side, by_name=present, now=end)
    m.refresh_from_db()
    assert (m.status, m.ended_at, m.rated) == ("ended", end, True)
    assert m.no_show_by.username == absent and m.winner.username == present
    assert m.differential_a == (-3 if absent == "alice" else 1)
    assert hook_calls == [("thud", end)]
    assert apps.get_app_config("play").rated_periods("thud") == [
        (m.pk, end, m.user_a_id, m.user_b_id, m.differential_a)
    ]
    client.force_login(m.user_a)
    html = client.get(reverse("games:battle", args=[m.battle_2_id])).content.decode()
    assert f"{present} wins the match: {absent} did not join battle 2 in time." in html


def test_a_match_with_no_move_played_is_not_rated_and_says_so(
    hook_calls, django_capture_on_commit_callbacks, client
):
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0)
    m.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(m.battle_2_id, now=t0 + timedelta(minutes=1))
    m.refresh_from_db()
    assert (m.status, m.rated, m.unrated_reason) == ("ended", False, "unplayed")
    assert hook_calls == []
    assert apps.get_app_config("play").rated_periods("thud") == []
    client.force_login(m.user_a)
    html = client.get(reverse("games:battle", args=[m.battle_1_id])).content.decode()
    assert "This match is not rated: no move was played in it." in html
    # One move in either battle is play: a match whose battle 1 alone was played is rated.
    m2 = CasualMatch.objects.get(
        battle_1=challenges.accept(
            challenges.create_challenge(
                by=m.user_a,
                opponent=m.user_b,
                game="thud",
                timing="quickfire",
                first="challenger",
                rated_match=True,
                now=t0,
            ).pk,
            by=m.user_b,
            now=t0,
        )
    )
    play_to_end(m2.battle_1_id, now=t0, moves=OPENING)
    m2.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(m2.battle_2_id, now=t0 + timedelta(minutes=2))
    m2.refresh_from_db()
    assert (m2.rated, m2.unrated_reason) == (True, "")
    assert len(hook_calls) == 1


def challenge_match(by, to, *, now) -> CasualMatch:
    c = challenges.create_challenge(
        by=by, opponent=to, game="thud", timing="quickfire", rated_match=True, now=now
    )
    return CasualMatch.objects.get(battle_1=challenges.accept(c.pk, by=to, now=now))


def test_rematches_beyond_the_limit_per_period_are_played_unrated_and_say_so(client):
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    t0 = timezone.now()
    limit = matches.RATED_PER_PERIOD
    # One more than the limit, either way round: the first ones rated, the last not.
    made = [
        challenge_match(*((alice, bob) if i % 2 else (bob, alice)), now=t0 + timedelta(hours=i))
        for i in range(limit + 1)
    ]
    assert [m.rated for m in made] == [True] * limit + [False]
    assert made[-1].unrated_reason == "limit" and made[-1].battle_1_id is not None
    # Another opponent, or another game, is another count.
    assert challenge_match(alice, carol, now=t0).rated
    # The page and the list say why.
    client.force_login(alice)
    html = client.get(reverse("games:battle", args=[made[-1].battle_1_id])).content.decode()
    assert (
        f"This match is not rated: the two players have already played {limit} rated "
        "matches of this game in the last 30 days"
    ) in html
    games = client.get(reverse("play:games")).content.decode()
    assert "not rated: the rated matches against this opponent are used up for now" in games
    # A cancelled match frees its place; the window is 30 days, rolling.
    CasualMatch.objects.filter(pk=made[0].pk).update(status="cancelled")
    assert challenge_match(alice, bob, now=t0 + timedelta(days=1)).rated
    assert not challenge_match(alice, bob, now=t0 + timedelta(days=1)).rated
    later = t0 + matches.RATING_PERIOD + timedelta(hours=1, seconds=1)
    assert challenge_match(bob, alice, now=later).rated


def _ended(a, b, game, *, ended_at, diff, rated=True, status="ended"):
    battle = create_casual_battle(
        game=game, first=a, second=b, timing="correspondence", now=timezone.now()
    )
    result = {"ended_at": ended_at, "differential_a": diff} if status == "ended" else {}
    return CasualMatch.objects.create(
        user_a=a,
        user_b=b,
        game=game,
        rated=rated,
        battle_1=battle,
        status=status,
        created_at=timezone.now(),
        **result,
    )


def test_rated_periods_are_the_ended_rated_matches_of_the_game_by_end_then_id():
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    t = timezone.now()
    late = _ended(a, b, "thud", ended_at=t + timedelta(hours=1), diff=-3)
    tie_1 = _ended(b, c, "thud", ended_at=t, diff=0)
    tie_2 = _ended(c, a, "thud", ended_at=t, diff=7)
    _ended(a, b, "cavalli", ended_at=t, diff=2)  # another game
    _ended(a, b, "thud", ended_at=t, diff=2, rated=False)  # not rated
    _ended(a, b, "thud", ended_at=None, diff=None, status="cancelled")
    _ended(a, b, "thud", ended_at=None, diff=None, status="playing")
    assert apps.get_app_config("play").rated_periods("thud") == [
        (tie_1.pk, t, b.pk, c.pk, 0),
        (tie_2.pk, t, c.pk, a.pk, 7),
        (late.pk, t + timedelta(hours=1), a.pk, b.pk, -3),
    ]


def test_the_match_differential_doctest_holds():
    assert doctest.testmod(for_games).failed == 0
