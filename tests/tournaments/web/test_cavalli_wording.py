"""A Cavalli tournament's pages name its sides (white, black), never Thud's pieces; a Thud
tournament's pages read as they always did. Issue 14, the tournament pages the earlier
work left in Thud's words: the player page, the crosstable, the pairings' battle scores,
the knockout playoff choice and the referee's match page."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tests.factories import UserFactory, tournament_with_players
from tests.tournaments.rounds.test_topcut import DRAW, play
from tournaments.models.results import ResultVersion
from tournaments.models.tournament import Tournament
from tournaments.results.entry import enter_result
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db

THUD_WORDS = re.compile(r"dwarf|troll|surviving", re.IGNORECASE)
CAVALLI_RESULT = (3000, 1200, 1000, 2600)  # A: 3000 + 2600, B: 1200 + 1000


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def confirmed_round_one(game: str, result, slug: str) -> Tournament:
    t = tournament_with_players(2, rounds=3, game=game, slug=slug)
    for m in publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.all():
        record_final_result(
            m, survivors=result, by=None, source=ResultVersion.Source.IMPORT, now=timezone.now()
        )
    return t


def test_player_page_names_the_side_of_battle_one_in_the_games_words(client):
    t = confirmed_round_one("cavalli", CAVALLI_RESULT, "palio-player")
    m = t.round_set.get().matches.get()
    a_page = text(client.get(f"/t/{t.slug}/players/{m.player_a_id}/"))
    b_page = text(client.get(f"/t/{t.slug}/players/{m.player_b_id}/"))
    assert "<th>Game 1</th>" in a_page and "<td>white</td>" in a_page
    assert "<td>black</td>" in b_page
    assert not THUD_WORDS.search(a_page + b_page)

    thud = confirmed_round_one("thud", (20, 3, 10, 4), "thud-player")
    m = thud.round_set.get().matches.get()
    page = text(client.get(f"/t/{thud.slug}/players/{m.player_a_id}/"))
    assert "<th>Battle 1</th>" in page and "<td>dwarfs</td>" in page


def test_crosstable_letters_and_legend_name_the_games_sides(client):
    t = confirmed_round_one("cavalli", CAVALLI_RESULT, "palio-cross")
    page = text(client.get(f"/t/{t.slug}/crosstable/"))
    assert "2w W +3400" in page and "1b L -3400" in page
    assert "the side in game 1 (w white, b black)" in page
    assert not THUD_WORDS.search(page)

    thud = confirmed_round_one("thud", (20, 3, 10, 4), "thud-cross")
    page = text(client.get(f"/t/{thud.slug}/crosstable/"))
    assert "2d W +14" in page and "1t L -14" in page
    assert "the side in battle 1 (d dwarfs, t trolls)" in page


def test_pairings_give_each_battles_points_in_the_games_words(client):
    t = confirmed_round_one("cavalli", CAVALLI_RESULT, "palio-pairs")
    page = text(client.get(f"/t/{t.slug}/rounds/1/"))
    assert "game 1 3000:1200, game 2 2600:1000" in page
    assert "battle 1" not in page and not THUD_WORDS.search(page)

    thud = confirmed_round_one("thud", (20, 3, 10, 4), "thud-pairs")
    page = text(client.get(f"/t/{thud.slug}/rounds/1/"))
    assert "battle 1 20:12, battle 2 16:10" in page


def test_the_playoff_choice_names_the_games_sides(client):
    t = tournament_with_players(4, rounds=1, top_cut=2, game="cavalli", slug="palio-ko")
    play(pair_next_round(t, by=None, now=timezone.now()))
    play(
        pair_next_round(t, by=None, now=timezone.now()), {1: (1000, 1000, 1000, 1000)}
    )  # a drawn semi-final
    client.force_login(t.owner)
    dashboard = text(client.get(f"/manage/t/{t.slug}/"))
    assert 'id="playoff-sides"' in dashboard
    assert "Unless ticked, the higher seed takes white in game 1." in dashboard
    assert "takes black first against" in dashboard
    assert not THUD_WORDS.search(dashboard)

    thud = tournament_with_players(4, rounds=1, top_cut=2, slug="thud-ko")
    play(pair_next_round(thud, by=None, now=timezone.now()))
    play(pair_next_round(thud, by=None, now=timezone.now()), {1: DRAW})
    client.force_login(thud.owner)
    dashboard = text(client.get(f"/manage/t/{thud.slug}/"))
    assert "Unless ticked, the higher seed takes the dwarfs in battle 1." in dashboard
    assert "takes the trolls first against" in dashboard


def test_referee_match_page_names_the_sides_of_the_players_and_versions(client):
    t = tournament_with_players(2, rounds=3, game="cavalli", slug="palio-ref")
    (m,) = publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.all()
    referee = UserFactory()
    t.referees.add(referee)
    enter_result(
        m, survivors=CAVALLI_RESULT, by=referee, expected_lock_version=None, now=timezone.now()
    )
    client.force_login(referee)
    page = text(client.get(f"/referee/t/{t.slug}/matches/{m.pk}/"))
    assert "(white in game 1)" in page and "(black in game 1)" in page
    assert "Game 1: white 3000, black 1200 · Game 2: white 1000, black 2600" in page
    assert not THUD_WORDS.search(page)
