"""A Swiss tournament with a top cut, played through the real workflow and pages.

Swiss rounds first; after the last one the organiser pairs the knockout (seeds from the
final Swiss standings, 1v8 4v5 2v7 3v6); a drawn knockout match is replayed as a playoff
round (the higher seed chooses sides) until decided, unless the tournament lets the
higher seed advance. Standings stay the Swiss standings; the bracket names the champion.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import UserFactory, tournament_with_players
from tests.tournaments.web.organiser.pages import settings_data
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Tournament
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.edits import swap_players
from tournaments.rounds.hall import hall_slides
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import close_tournament, publish_round
from tournaments.rounds.reads import load_standings, standings_json

pytestmark = pytest.mark.django_db

DRAW = (8, 2, 8, 2)  # 8 dwarfs against 2 trolls in both battles: differential 0
A_WINS = (20, 1, 5, 6)  # A: 20 + 24 points, B: 4 + 5
B_WINS = (5, 6, 20, 1)


def matches_of(round_: Round) -> list[Match]:
    return list(round_.matches.select_related("player_a", "player_b").order_by("table"))


def play(round_: Round, results=None) -> Round:
    """Publish ``round_`` and confirm a result for every match (A wins unless told)."""
    publish_round(round_, now=timezone.now())
    for m in matches_of(round_):
        if m.player_b_id is not None:
            survivors = (results or {}).get(m.table, A_WINS)
            record_final_result(
                m,
                survivors=survivors,
                by=None,
                source=ResultVersion.Source.IMPORT,
                now=timezone.now(),
            )
    return round_


def swiss(players: int, *, rounds: int = 3, **fields) -> Tournament:
    t = tournament_with_players(players, rounds=rounds, **fields)
    for _ in range(rounds):
        play(pair_next_round(t, by=None, now=timezone.now()))
    return t


def test_swiss_then_top_8_with_a_drawn_quarter_final_decided_by_playoffs():
    t = swiss(10, top_cut=8)
    swiss_standings = standings_json(load_standings(t))
    top8 = [row["name"] for row in swiss_standings[:8]]

    quarters = pair_next_round(t, by=None, now=timezone.now())

    assert (quarters.number, quarters.stage) == (4, Round.Stage.KNOCKOUT)
    pairs = [(m.player_a.player.name, m.player_b.player.name) for m in matches_of(quarters)]
    by_seed = {s: top8[s - 1] for s in range(1, 9)}
    assert pairs == [
        (by_seed[1], by_seed[8]),
        (by_seed[4], by_seed[5]),
        (by_seed[2], by_seed[7]),
        (by_seed[3], by_seed[6]),
    ]
    assert [m.player_a.knockout_seed for m in matches_of(quarters)] == [1, 4, 2, 3]
    # 4 v 5 is drawn: a playoff, the higher seed (4) with the dwarfs by default.
    play(quarters, {2: DRAW})
    playoff = pair_next_round(t, by=None, now=timezone.now())
    assert playoff.stage == Round.Stage.PLAYOFF
    (m,) = matches_of(playoff)
    assert (m.player_a.knockout_seed, m.player_b.knockout_seed, m.flags) == (4, 5, ["playoff"])
    # Drawn again: a second playoff, where seed 4 chose the trolls first.
    play(playoff, {1: DRAW})
    seed4 = m.player_a
    second = pair_next_round(t, by=None, now=timezone.now(), second_side_first=[seed4.pk])
    (m,) = matches_of(second)
    assert (second.stage, m.player_a.knockout_seed, m.player_b_id) == ("playoff", 5, seed4.pk)
    play(second, {1: B_WINS})  # seed 4 (B) wins the playoff

    semis = pair_next_round(t, by=None, now=timezone.now())
    assert semis.stage == Round.Stage.KNOCKOUT
    assert [(m.player_a.knockout_seed, m.player_b.knockout_seed) for m in matches_of(semis)] == [
        (1, 4),
        (2, 3),
    ]
    play(semis, {2: B_WINS})
    final = pair_next_round(t, by=None, now=timezone.now())
    assert [(m.player_a.knockout_seed, m.player_b.knockout_seed) for m in matches_of(final)] == [
        (1, 3)
    ]
    play(final, {1: B_WINS})
    with pytest.raises(RoundError, match="final has been played"):
        pair_next_round(t, by=None, now=timezone.now())

    # The standings stay the Swiss standings; the pages name the champion.
    assert standings_json(load_standings(t)) == swiss_standings
    champion = by_seed[3]
    page = Client().get(f"/t/{t.slug}/").content.decode()
    assert "Champion" in page and champion in page and f"/t/{t.slug}/bracket/" in page
    bracket = Client().get(f"/t/{t.slug}/bracket/").content.decode()
    assert "Quarter-finals" in bracket and "Semi-finals" in bracket and "Final" in bracket
    assert "Playoff in round 5" in bracket and "Playoff in round 6" in bracket
    assert 'id="champion"' in bracket and champion in bracket
    # Closed, the hall screen names the final's winner, not the Swiss leader (issue 41).
    close_tournament(t, now=timezone.now())
    t.refresh_from_db()
    assert hall_slides(t, now=timezone.now())["champions"] == [champion]
    assert champion != load_standings(t)[0].name


def test_under_the_higher_seed_rule_a_drawn_semi_final_has_no_playoff():
    t = swiss(6, top_cut=4, knockout_draw_rule=Tournament.DrawRule.HIGHER_SEED)
    semis = pair_next_round(t, by=None, now=timezone.now())
    # Seed 1 v 4 drawn, with the higher seed turned to player B: still seed 1 goes on.
    first = matches_of(semis)[0]
    swap_players(semis, first.player_a, first.player_a)
    play(semis, {1: DRAW})

    final = pair_next_round(t, by=None, now=timezone.now())

    assert final.stage == Round.Stage.KNOCKOUT
    assert sorted(
        (m.player_a.knockout_seed, m.player_b.knockout_seed) for m in matches_of(final)
    ) == [(1, 2)]
    assert not t.round_set.filter(stage=Round.Stage.PLAYOFF).exists()


def test_single_elimination_uses_the_playoff_rule_too():
    t = tournament_with_players(4, rounds=2, format=Tournament.Format.SINGLE_ELIMINATION)
    play(pair_next_round(t, by=None, now=timezone.now()), {1: DRAW})
    assert pair_next_round(t, by=None, now=timezone.now()).stage == Round.Stage.PLAYOFF


def test_without_a_top_cut_the_swiss_simply_ends():
    t = swiss(4, rounds=1)
    with pytest.raises(RoundError, match="All 1 rounds"):
        pair_next_round(t, by=None, now=timezone.now())


def test_a_knockout_round_cannot_be_rearranged_across_matches():
    t = swiss(4, rounds=1, top_cut=4)
    semis = pair_next_round(t, by=None, now=timezone.now())
    one, two = matches_of(semis)
    with pytest.raises(RoundError, match="follows the bracket"):
        swap_players(semis, one.player_a, two.player_b)


def test_too_few_active_players_for_the_cut_is_a_clear_error():
    t = swiss(4, rounds=1, top_cut=4)
    withdrawn = t.entries.first()
    withdrawn.withdrawn_from_round = 2
    withdrawn.save()
    with pytest.raises(RoundError, match="needs 4 active players; only 3"):
        pair_next_round(t, by=None, now=timezone.now())
    assert t.round_set.count() == 1


# ---------------------------------------------------------------- settings and pages


def settings_url(t: Tournament) -> str:
    return f"/manage/t/{t.slug}/settings/"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"top_cut": 8}, "A top 8 needs at least 8 players; the tournament has 6."),
        ({"top_cut": 3}, "Select a valid choice."),
        ({"top_cut": 4, "format": "round_robin"}, "Only a Swiss tournament"),
        ({"knockout_draw_rule": "coin"}, "Select a valid choice."),
    ],
)
def test_bad_top_cut_settings_are_refused_with_a_message(client, changes, message):
    t = tournament_with_players(6, rounds=3)
    client.force_login(t.owner)
    response = client.post(settings_url(t), settings_data(t, **changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    t.refresh_from_db()
    assert (t.top_cut, t.format, t.knockout_draw_rule) == (0, "swiss", "playoff")


def test_the_organiser_sets_a_top_cut_until_the_knockout_starts(client):
    t = tournament_with_players(4, rounds=1)
    client.force_login(t.owner)
    data = settings_data(t, top_cut=4, knockout_draw_rule="higher_seed")
    assert client.post(settings_url(t), data).status_code == 302
    t.refresh_from_db()
    assert (t.top_cut, t.knockout_draw_rule) == (4, "higher_seed")
    play(pair_next_round(t, by=None, now=timezone.now()))
    pair_next_round(t, by=None, now=timezone.now())  # the knockout has started (a draft semi-final)

    response = client.post(settings_url(t), settings_data(t, top_cut=2))

    assert response.status_code == 400
    assert "The knockout has started" in response.content.decode()
    t.refresh_from_db()
    assert t.top_cut == 4


def test_only_organisers_pair_the_knockout(client):
    t = swiss(4, rounds=1, top_cut=2)
    url = f"/manage/t/{t.slug}/rounds/generate/"
    referee = UserFactory()
    t.referees.add(referee)
    for user in (referee, UserFactory()):
        client.force_login(user)
        assert client.post(url).status_code == 403
    client.logout()
    assert client.post(url).status_code == 302  # to the login page
    assert t.round_set.count() == 1
    client.force_login(t.owner)
    client.post(url)
    assert t.round_set.get(number=2).stage == Round.Stage.KNOCKOUT


def test_the_organiser_records_the_higher_seeds_choice_of_sides(client):
    t = swiss(4, rounds=1, top_cut=2)
    play(pair_next_round(t, by=None, now=timezone.now()), {1: DRAW})
    client.force_login(t.owner)
    dashboard = client.get(f"/manage/t/{t.slug}/").content.decode()
    assert 'id="playoff-sides"' in dashboard
    seed1 = t.entries.get(knockout_seed=1)
    url = f"/manage/t/{t.slug}/rounds/generate/"

    refused = client.post(url, {"second_side_first": [seed1.pk + 1000]}, follow=True)

    assert "is not one of the available choices" in refused.content.decode()
    assert t.round_set.count() == 2
    client.post(url, {"second_side_first": [seed1.pk]})
    (m,) = matches_of(t.round_set.get(number=3))
    assert (m.player_b_id, m.player_a.knockout_seed) == (seed1.pk, 2)


def bracket_queries(client, t: Tournament) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/t/{t.slug}/bracket/").status_code == 200
    return len(ctx.captured_queries)


def test_the_bracket_page_costs_the_same_queries_for_a_top_2_and_a_top_8(client):
    small = swiss(4, rounds=1, top_cut=2)
    play(pair_next_round(small, by=None, now=timezone.now()))
    big = swiss(8, rounds=1, top_cut=8)
    play(pair_next_round(big, by=None, now=timezone.now()), {2: DRAW})
    play(pair_next_round(big, by=None, now=timezone.now()))  # the playoff
    play(pair_next_round(big, by=None, now=timezone.now()))  # the semi-finals
    assert bracket_queries(client, small) == bracket_queries(client, big)


def test_the_bracket_page_before_and_without_a_knockout(client):
    t = swiss(4, rounds=1, top_cut=4)
    page = client.get(f"/t/{t.slug}/bracket/")
    assert page.status_code == 200
    assert "has not started yet" in page.content.decode()
    plain = tournament_with_players(4, rounds=1)
    missing = client.get(f"/t/{plain.slug}/bracket/")
    assert missing.status_code == 404
    assert "no knockout stage" in missing.content.decode()
    assert f"/t/{plain.slug}/bracket/" not in client.get(f"/t/{plain.slug}/").content.decode()
