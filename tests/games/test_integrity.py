"""Issue 9: battles and results stay with the players who played them.

Each test reproduces a finding against the landed release: play in a draft round,
unpublishing under running battles, a result recorded for swapped players, draft
pairings visible to the public, and a 500 for an unknown battle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.battles.errors import NotAllowed
from games.battles.finishing import record_online_result
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import make_match
from tournaments.models.people import Player
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry
from tournaments.rounds.edits import swap_players
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import publish_round, unpublish_round

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def draft_match() -> Match:
    match = make_match(variant="quickfire24")[0]
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.DRAFT)
    return Match.objects.select_related("round__tournament").get(pk=match.pk)


def user_of(entry: Entry):
    return get_user_model().objects.get(pk=entry.player.user_id)


def referee_of(match: Match):
    return match.round.tournament.referees.get()


# --- finding 2: nothing is played or entered in a draft ------------------------------


def test_no_battle_can_be_created_in_a_draft_round():
    match = draft_match()
    with pytest.raises(NotAllowed, match="not published"):
        create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    assert not Battle.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).play_started_at is None


def test_player_cannot_start_online_play_in_a_draft_round(client):
    match = draft_match()
    client.force_login(user_of(match.player_a))
    response = client.post(reverse("games:start_online", args=[match.pk]))
    assert response.status_code == 404
    assert not Battle.objects.filter(match=match).exists()


def test_referee_starting_the_clock_in_a_draft_round_is_told_why(client):
    match = draft_match()
    client.force_login(referee_of(match))
    response = client.post(reverse("games:start_otb", args=[match.pk]), follow=True)
    assert "not published yet" in response.content.decode()
    assert not Battle.objects.filter(match=match).exists()


def test_unpublish_is_refused_once_a_battle_was_started():
    match = make_match(variant="quickfire24")[0]
    create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    with pytest.raises(RoundError, match="pairings are frozen"):
        unpublish_round(match.round)
    assert Round.objects.get(pk=match.round_id).status == Round.Status.PUBLISHED


def test_unpublish_swap_republish_cannot_move_a_running_battle_to_other_players():
    """The reported sequence: unpublish while battles run, swap, republish."""
    m1, m2 = make_match(variant="quickfire24", tables=2)
    b1, _ = create_battles(m1, mode=Battle.Mode.ONLINE, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    with pytest.raises(RoundError):
        unpublish_round(m1.round)
    with pytest.raises(RoundError, match="already published"):
        swap_players(m1.round, m1.player_b, m2.player_b)
    with pytest.raises(RoundError, match="Only a draft"):
        publish_round(m1.round, now=timezone.now())
    assert Match.objects.get(pk=m1.pk).player_b_id == m1.player_b_id


def test_result_is_not_recorded_for_players_who_did_not_play_it():
    """A battle keeps its players; the match's pairing changed under it (old data)."""
    match = make_match(variant="quickfire24")[0]
    b1, b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    stranger = Entry.objects.create(
        tournament=match.round.tournament, player=Player.objects.create(name="Stranger")
    )
    Match.objects.filter(pk=match.pk).update(player_b=stranger)
    record_online_result(Match.objects.get(pk=match.pk), b1, b2, now=timezone.now())
    assert not ResultVersion.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).confirmed_version is None


def test_existing_battles_of_other_players_are_not_handed_to_the_new_pairing():
    match = make_match(variant="quickfire24")[0]
    create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    stranger = Entry.objects.create(
        tournament=match.round.tournament, player=Player.objects.create(name="Stranger")
    )
    Match.objects.filter(pk=match.pk).update(player_b=stranger)
    with pytest.raises(NotAllowed):
        create_battles(Match.objects.get(pk=match.pk), mode=Battle.Mode.ONLINE, now=timezone.now())


def test_engine_result_is_recorded_for_the_players_who_played():
    match = make_match(variant="quickfire24")[0]
    b1, b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    Battle.objects.filter(pk=b1.pk).update(first_count=20, second_count=3)
    Battle.objects.filter(pk=b2.pk).update(first_count=11, second_count=6)
    b1.refresh_from_db()
    b2.refresh_from_db()
    record_online_result(match, b1, b2, now=timezone.now())
    version = Match.objects.get(pk=match.pk).confirmed_version
    assert version.source == ResultVersion.Source.ENGINE
    assert version.survivors.as_tuple() == (20, 3, 11, 6)


# --- finding 3: draft pairings do not leak ----------------------------------------------


def test_draft_match_page_is_not_public(client):
    match = draft_match()
    page = reverse("games:match", args=[match.pk])
    assert client.get(page).status_code == 404
    client.force_login(user_of(match.player_a))
    assert client.get(page).status_code == 404
    client.force_login(referee_of(match))
    assert client.get(page).status_code == 200


def test_battles_of_a_draft_round_are_not_public(client):
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.DRAFT)  # old data
    assert client.get(reverse("games:battle", args=[b1.pk])).status_code == 404
    assert client.get(reverse("games:events", args=[b1.pk])).status_code == 404


def test_published_match_page_is_public(client):
    match = make_match(variant="quickfire24")[0]
    assert client.get(reverse("games:match", args=[match.pk])).status_code == 200


# --- finding 8: the gate comes before any work ----------------------------------------------


@pytest.mark.parametrize("name", ["games:battle", "games:referee_clock", "games:events"])
def test_unknown_battle_is_404_not_500(client, name):
    match = make_match(variant="quickfire24")[0]
    assert client.get(reverse(name, args=[99999])).status_code == 404
    client.force_login(referee_of(match))
    assert client.get(reverse(name, args=[99999])).status_code == 404


def test_unknown_battle_nudge_and_moves_are_404(client):
    match = make_match(variant="quickfire24")[0]
    client.force_login(user_of(match.player_a))
    for name in ("games:nudge", "games:move", "games:touch"):
        assert client.post(reverse(name, args=[99999])).status_code == 404


# --- one-way dependencies ------------------------------------------------------------------


def test_tournaments_never_imports_games():
    offenders = []
    for path in sorted((ROOT / "tournaments").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "games"]
    assert offenders == []
