"""The navigation's role links: right for each user, lazy, and a constant number of queries."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from front.context_processors import navigation
from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tournaments.models.people import Player, PlayerClaim

pytestmark = pytest.mark.django_db


def _nav(user) -> dict:
    request = RequestFactory().get("/")
    request.user = user
    return navigation(request)


def test_navigation_queries_nothing_until_a_template_shows_it():
    user = UserFactory()
    with CaptureQueriesContext(connection) as ctx:
        nav = _nav(user)
    assert len(ctx.captured_queries) == 0
    with CaptureQueriesContext(connection) as ctx:
        assert not nav["nav_has_player"]
        assert not nav["nav_organises"]
        assert not nav["nav_claims"]
        assert not nav["nav_your_move"]
    assert len(ctx.captured_queries) == 1  # the facts and the badge in one query, asked once


@pytest.mark.parametrize("logged_in", [False, True])
def test_no_two_navigation_links_read_the_same(client, logged_in):
    if logged_in:
        client.force_login(UserFactory())
    html = client.get("/").content.decode()
    header = html.split('<header class="site-header">')[1].split("</header>")[0]
    texts = [
        re.sub(r"<[^>]+>|\s+", " ", a).strip() for a in re.findall(r"<a [^>]*>(.*?)</a>", header)
    ]
    assert len(texts) == len(set(texts)), texts


def test_navigation_knows_players_and_organisers_with_their_pending_claims():
    player_user = UserFactory()
    Player.objects.create(name="Linked", user=player_user)
    nav = _nav(player_user)
    assert nav["nav_has_player"] and not nav["nav_organises"]

    owner = UserFactory()
    t = TournamentFactory(owner=owner)
    entry = EntryFactory(tournament=t)
    PlayerClaim.objects.create(player=entry.player, user=UserFactory())
    nav = _nav(owner)
    assert not nav["nav_has_player"] and nav["nav_organises"]
    assert int(str(nav["nav_claims"])) == 1


def test_navigation_query_count_does_not_grow_with_tournaments_or_players():
    def queries(tournaments: int) -> int:
        owner = UserFactory()
        for _ in range(tournaments):
            t = TournamentFactory(owner=owner)
            for _ in range(3):
                PlayerClaim.objects.create(
                    player=EntryFactory(tournament=t).player, user=UserFactory()
                )
        with CaptureQueriesContext(connection) as ctx:
            nav = _nav(owner)
            bool(nav["nav_has_player"]), bool(nav["nav_organises"]), str(nav["nav_claims"])
        return len(ctx.captured_queries)

    assert queries(1) == queries(8) == 2  # facts + the claims count


def test_a_logged_in_session_survives_a_cache_flush(client):
    user = UserFactory()
    client.force_login(user)
    cache.clear()
    assert client.get("/").wsgi_request.user == user


def test_the_navigation_statement_agrees_with_the_querysets_it_stands_for():
    from front.context_processors import _facts
    from games.battles.starting import create_casual_battle
    from play.queries import your_move_count
    from tournaments.permissions.listings import tournaments_organised_by

    owner, helper, root, player_user, stranger = (UserFactory() for _ in range(5))
    root.is_superuser = True
    root.save()
    TournamentFactory(owner=owner).co_organisers.add(helper)
    Player.objects.create(name="Linked", user=player_user)
    for first, second, game in [
        (player_user, stranger, "cavalli"),
        (stranger, player_user, "cavalli"),
        (player_user, owner, "thud"),
        (owner, player_user, "thud"),
        (helper, stranger, "thud"),
    ]:
        create_casual_battle(game=game, first=first, second=second, now=timezone.now())
    for user in (owner, helper, root, player_user, stranger):
        facts = _facts(user)
        expected = {
            "has_player": Player.objects.filter(user=user).exists(),
            "organises": tournaments_organised_by(user).exists(),
            "your_move": your_move_count(user),
        }
        assert {key: facts[key] for key in expected} == expected, user.username
    assert _facts(player_user)["your_move"] == 2  # white in one Cavalli game, dwarfs in one
