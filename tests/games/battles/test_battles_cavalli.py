"""A Battaglia di Cavalli tournament match (games/battles/): two games on one board with
colours swapped, played through the same functions the online views call, and the engine
result recorded as the points of both games (differential -> match points)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone

from games.battles.play import submit_move
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import make_match
from tournaments.models.results import ResultVersion
from tournaments.rounds.reads import load_standings
from tournaments.standings.scoring import score

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def cavalli_match():
    return make_match(variant="classic", game="cavalli")[0]


def play_to_the_end(battle: Battle, *, pick=0) -> Battle:
    """Play legal moves (the ``pick``-th of the list, wrapped) until the game is over."""
    for _ply in range(400):
        if battle.status != Battle.Status.RUNNING:
            return battle
        game = battle.rules
        moves = game.legal_moves(game.deserialise(battle.board))
        battle = submit_move(
            battle.pk,
            side=battle.side_to_move,
            version=battle.clock_version,
            notation=moves[pick % len(moves)],
            now=T0,
        )
    raise AssertionError("the game did not end")


def test_both_battles_are_cavalli_on_one_board_with_colours_swapped():
    match = cavalli_match()
    b1, b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    assert (b1.game, b2.game) == ("cavalli", "cavalli")
    assert b1.board_seed is not None and b1.board_seed == b2.board_seed
    # Player A is white (moves first) in game 1, player B in game 2.
    assert (b1.entry_for("white"), b1.entry_for("black")) == (match.player_a, match.player_b)
    assert (b2.entry_for("white"), b2.entry_for("black")) == (match.player_b, match.player_a)
    assert b1.side_to_move == b2.side_to_move == "white"
    assert b1.match_players == b2.match_players == (match.player_a_id, match.player_b_id)
    b1 = start_battle(b1.pk, now=T0)
    game = b1.rules
    first = game.deserialise(b1.board)
    assert game.deserialise(b1.board) == game.initial_state({"board_seed": b2.board_seed})
    assert first == game.initial_state({"board_seed": b1.board_seed})
    # A second click returns the same battles, seed unchanged.
    again = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    assert [b.pk for b in again] == [b1.pk, b2.pk] and again[1].board_seed == b2.board_seed


def test_a_thud_tournament_still_plays_thud_without_a_board_seed():
    match = make_match(variant="classic")[0]
    b1, b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    assert (b1.game, b2.game, b1.board_seed, b2.board_seed) == ("thud", "thud", None, None)
    assert b1.side_to_move == "dwarf"


@pytest.mark.parametrize("pick", [0, 1, 2])
def test_a_played_match_records_the_points_of_both_games_and_the_standings(pick):
    match = cavalli_match()
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    b1 = play_to_the_end(start_battle(b1.pk, now=T0), pick=pick)
    assert b1.status == Battle.Status.FINISHED
    assert not ResultVersion.objects.filter(match=match).exists()  # one game is not a match
    b2 = Battle.objects.get(match=match, number=2)
    assert b2.status == Battle.Status.RUNNING  # started when game 1 ended
    b2 = play_to_the_end(b2, pick=pick + 1)

    b1.refresh_from_db()
    b2.refresh_from_db()
    a_points = b1.scores["white"] + b2.scores["black"]
    b_points = b1.scores["black"] + b2.scores["white"]
    assert a_points + b_points > 0
    match.refresh_from_db()
    version = match.confirmed_version
    assert version.source == ResultVersion.Source.ENGINE and version.game == "cavalli"
    assert version.survivors.as_tuple() == (
        b1.scores["white"],
        b1.scores["black"],
        b2.scores["white"],
        b2.scores["black"],
    )
    assert score(version.survivors).differential == a_points - b_points

    rows = {row.entry_id: row for row in load_standings(match.round.tournament)}
    a, b = rows[match.player_a_id], rows[match.player_b_id]
    assert (a.differential, b.differential) == (a_points - b_points, b_points - a_points)
    expected = {True: 2, False: 0}
    if a_points == b_points:
        assert a.match_points == b.match_points == 1
    else:
        assert a.match_points == expected[a_points > b_points]
        assert b.match_points == expected[b_points > a_points]


def test_a_missing_second_battle_is_recreated_on_the_first_battles_board():
    match = cavalli_match()
    b1, b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    b2.delete()
    again = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    assert again[0].pk == b1.pk and again[1].pk != b2.pk
    assert again[1].board_seed == b1.board_seed


def test_a_cavalli_battle_record_and_api_name_the_players_white_and_black():
    from games.archive import export as archive
    from games.rules.records import split_records

    match = cavalli_match()
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    b1 = play_to_the_end(start_battle(b1.pk, now=T0))
    b1 = archive.with_moves(Battle.objects.filter(pk=b1.pk)).get()
    white, black = b1.result_numbers
    data = archive.battle_data(b1)
    assert data["white"]["id"] == match.player_a.player_id
    assert data["black"]["id"] == match.player_b.player_id
    assert data["result"] == {"white": white, "black": black}
    ((tags, movetext),) = split_records(archive.record_text(b1))
    assert (tags["White"], tags["Black"]) == (
        match.player_a.player.name,
        match.player_b.player.name,
    )
    assert tags["Result"] == f"{white}-{black}" and movetext.startswith("1. ")
    assert not {"Dwarfs", "Trolls", "dwarfs", "trolls"} & (set(tags) | set(data))


def test_a_cavalli_battle_page_draws_with_its_own_style_sheet(client):
    match = cavalli_match()
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    b1 = start_battle(b1.pk, now=T0)
    client.force_login(match.player_a.player.user)
    html = client.get(f"/battles/{b1.pk}/").content.decode()
    assert "css/games/cavalli.css" in html and "css/games/thud.css" not in html
    assert 'class="cavalli-board' in html
