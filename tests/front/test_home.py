"""The home page: each role finds its next task one tap from ``/``."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.referee import pause
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import (
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Tournament
from tournaments.reports.dashboards import TournamentFacts, next_action
from tournaments.results.entry import enter_result

HOME = "/"


# --- next_action: pure -------------------------------------------------------------


def facts(**kw) -> TournamentFacts:
    return TournamentFacts(**({"status": "running", "rounds_planned": 3, "players": 8} | kw))


@pytest.mark.parametrize(
    ("kw", "kind", "words"),
    [
        ({"status": "setup", "players": 1}, "players", "Add players"),
        ({"status": "setup"}, "pair", "Pair round 1"),
        ({"last_round": 1, "last_status": "draft"}, "publish", "publish round 1"),
        (
            {"last_round": 1, "last_status": "published", "disputed": 1, "entered": 2},
            "results",
            "1 disputed result in round 1",
        ),
        (
            {"last_round": 1, "last_status": "published", "entered": 2},
            "results",
            "2 results to confirm in round 1",
        ),
        (
            {"last_round": 2, "last_status": "published", "awaiting": 1},
            "results",
            "1 result awaited in round 2",
        ),
        ({"last_round": 2, "last_status": "published"}, "pair", "Pair round 3"),
        ({"last_round": 3, "last_status": "published"}, "close", "Close the tournament"),
        ({"status": "finished", "last_round": 3}, "done", "Finished"),
    ],
)
def test_next_action_names_the_one_thing_to_do(kw, kind, words):
    action = next_action(facts(**kw))
    assert action.kind == kind and words in action.label


# --- the page, per role --------------------------------------------------------------


pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_public_home_lists_live_events_first(client):
    TournamentFactory(name="Old Cup", status=Tournament.Status.FINISHED)
    TournamentFactory(name="Live Open", status=Tournament.Status.RUNNING)
    html = client.get(HOME).content.decode()
    assert html.index("Live Open") < html.index("Old Cup")
    assert "Refereeing" not in html and "Organising" not in html


@pytestmark_db
def test_organiser_sees_results_to_confirm_linked_to_the_round(client):
    match = MatchFactory()
    t = match.round.tournament
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=UserFactory(),
        expected_lock_version=0,
        now=timezone.now(),
    )
    client.force_login(t.owner)
    html = client.get(HOME).content.decode()
    assert "1 result to confirm in round 1" in html
    assert reverse("organiser_round", args=[t.slug, 1]) in html
    assert reverse("pending_claims") in html  # the nav's claims queue


@pytestmark_db
def test_referee_sees_counts_and_battles_waiting_one_tap_away(client):
    match = MatchFactory()
    t = match.round.tournament
    referee = UserFactory()
    t.referees.add(referee)
    MatchFactory(round=match.round)  # a second table, awaiting
    enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=UserFactory(),
        expected_lock_version=0,
        now=timezone.now(),
    )
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    pause(b1.pk, now=timezone.now())
    client.force_login(referee)
    html = client.get(HOME).content.decode()
    assert reverse("games:referee_clock", args=[b1.pk]) in html
    assert "1 awaiting" in html and "1 to confirm" in html and "0 disputed" in html
    assert reverse("referee_round", args=[t.slug, 1]) + "?status=entered" in html


@pytestmark_db
def test_player_sees_the_current_match_with_a_play_button_for_quickfire(client):
    t = TournamentFactory(variant=Tournament.Variant.TIMED_24, status=Tournament.Status.RUNNING)
    match = MatchFactory(round=RoundFactory(tournament=t))
    user = UserFactory()
    match.player_b.player.user = user
    match.player_b.player.save()
    client.force_login(user)
    html = client.get(HOME).content.decode()
    assert match.player_a.player.name in html
    assert "you play trolls in battle 1 and dwarfs in battle 2" in html
    assert reverse("games:match", args=[match.pk]) in html
    assert reverse("referee_my_matches") in html
    assert reverse("my_page", args=[t.slug]) in html


@pytestmark_db
def test_player_in_a_classic_tournament_gets_no_play_button(client):
    t = TournamentFactory(status=Tournament.Status.RUNNING)
    match = MatchFactory(round=RoundFactory(tournament=t))
    user = UserFactory()
    match.player_a.player.user = user
    match.player_a.player.save()
    client.force_login(user)
    html = client.get(HOME).content.decode()
    assert "you play dwarfs in battle 1 and trolls in battle 2" in html
    assert reverse("games:match", args=[match.pk]) not in html


@pytestmark_db
def test_player_does_not_see_a_draft_pairing_at_home(client):
    t = TournamentFactory(status=Tournament.Status.RUNNING)
    match = MatchFactory(round=RoundFactory(tournament=t, status=Round.Status.DRAFT))
    user = UserFactory()
    match.player_a.player.user = user
    match.player_a.player.save()
    client.force_login(user)
    html = client.get(HOME).content.decode()
    assert match.player_b.player.name not in html
    assert Match.objects.count() == 1


@pytestmark_db
def test_home_runs_a_constant_number_of_queries(client, django_assert_max_num_queries):
    owner = UserFactory()
    for _ in range(5):
        t = TournamentFactory(owner=owner, status=Tournament.Status.RUNNING)
        MatchFactory(round=RoundFactory(tournament=t))
    client.force_login(owner)
    with django_assert_max_num_queries(21):  # 20 + the "your move" badge count
        client.get(HOME)


@pytestmark_db
def test_player_in_a_cavalli_tournament_is_told_their_colours(client):
    t = TournamentFactory(status=Tournament.Status.RUNNING, game="cavalli")
    match = MatchFactory(round=RoundFactory(tournament=t))
    user = UserFactory()
    match.player_b.player.user = user
    match.player_b.player.save()
    client.force_login(user)
    html = client.get(HOME).content.decode()
    assert "you play black in game 1 and white in game 2" in html
    assert "dwarf" not in html.lower() and "troll" not in html.lower()


@pytestmark_db
def test_player_in_two_running_tournaments_sees_both_matches(client):
    user = UserFactory()
    player = PlayerFactory(user=user, name="Cheery Littlebottom")
    matches = []
    for name in ("Ankh Open", "Sto Lat Cup"):
        t = TournamentFactory(name=name, status=Tournament.Status.RUNNING)
        entry = EntryFactory(tournament=t, player=player)
        matches.append(MatchFactory(round=RoundFactory(tournament=t), player_a=entry))
    client.force_login(user)
    html = client.get(HOME).content.decode()
    for m in matches:
        t = m.round.tournament
        assert t.name in html
        assert m.player_b.player.name in html
        assert reverse("my_page", args=[t.slug]) in html
        assert reverse("referee_match", args=[t.slug, m.pk]) in html
    assert html.count('data-tournament="') == 2


# --- every battle waiting for you ------------------------------------------------------


@pytest.mark.django_db
def test_home_lists_every_battle_waiting_for_you_with_join_in_one_query(
    client, django_assert_num_queries
):
    from front.home import battles_for
    from games.battles import joining
    from games.battles.starting import create_casual_battle
    from play import computer
    from tests.factories import make_match

    now = timezone.now()
    (match,) = make_match()
    alice = match.player_a.player.user  # she plays in a tournament too
    bob, carol = UserFactory(username="bob"), UserFactory(username="carol")
    casual = create_casual_battle(
        game="cavalli", first=bob, second=alice, timing="quickfire", await_players=True, now=now
    )
    bot = computer.start(
        by=alice, game="thud", level=2, side=computer.YOU_FIRST, time_control="quickfire", now=now
    )
    theirs = create_casual_battle(  # someone else's battle: not alice's business
        game="thud", first=bob, second=carol, timing="quickfire", await_players=True, now=now
    )
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=now)
    joining.open_for_players(b1.pk, side=None, now=now)
    client.force_login(alice)
    html = client.get(HOME).content.decode()
    section = html.split('id="home-battles"')[1].split("</section>")[0]
    for battle in (casual, bot, b1):
        card = section.split(f'data-battle="{battle.pk}"')[1].split("</li>")[0]
        assert f'href="{reverse("games:battle", args=[battle.pk])}"' in card
        assert ">Join<" in card
    assert f'data-battle="{theirs.pk}"' not in section
    assert "3 battles are waiting for you" in section
    assert "Against bob" in section and "Battaglia di Cavalli" in section
    assert "Against The computer, level 2" in section and "Your move" in section
    assert match.round.tournament.name in section and "Waiting for you to join" in section
    with django_assert_num_queries(1):
        rows = battles_for(alice)
    assert [r["battle"].pk for r in rows][-1] == bot.pk  # to join first, then to move
    # Joined is not started: still hers to play. Started and the other's move: gone.
    joining.join(casual.pk, side="black", now=now)
    assert casual.pk in [r["battle"].pk for r in battles_for(alice)]
    joining.join(casual.pk, side="white", now=now)  # white (bob) moves first
    assert casual.pk not in [r["battle"].pk for r in battles_for(alice)]
    assert casual.pk in [r["battle"].pk for r in battles_for(bob)]


@pytest.mark.django_db
def test_home_without_a_waiting_battle_has_no_such_section(client):
    client.force_login(UserFactory())
    assert 'id="home-battles"' not in client.get(HOME).content.decode()
