"""The replay page: the live board's renderer at any ply, links that work without
JavaScript, captures shown, the diagram at a ply, and links from battle and match pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.battles import play
from games.battles.starting import create_battles, start_battle
from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from games.thud import Position
from games.thud.core.records import replay
from play import computer
from tests.factories import make_match
from tests.games.records_helpers import greedy_game, play_through_site
from tournaments.models.rounds import Round

pytestmark = pytest.mark.django_db
PLIES = 14


@pytest.fixture
def played(client):
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = play_through_site(client, start_battle(b1.pk, now=timezone.now()), PLIES)
    client.logout()
    return battle


def pieces_on_page(html: str) -> tuple[int, int]:
    return html.count('class="sq dark has-dwarf') + html.count(
        'class="sq light has-dwarf'
    ), html.count("has-troll")


def replay_url(battle, ply=None) -> str:
    url = reverse("games:replay", args=[battle.pk])
    return url if ply is None else f"{url}?ply={ply}"


@pytest.mark.parametrize("ply", [0, 1, 6, 11, PLIES])
def test_replay_shows_the_position_after_each_ply(client, played, ply):
    moves, _ = greedy_game(PLIES)
    expected = replay(moves, "subset")[ply]
    r = client.get(replay_url(played, ply))
    assert r.status_code == 200
    html = r.content.decode()
    assert 'class="thud-board"' in html  # the live board's renderer
    assert pieces_on_page(html) == (expected.dwarf_count, expected.troll_count)
    # Navigation: plain links (no JavaScript needed), clamped at both ends.
    assert f'href="?ply={max(ply - 1, 0)}"' in html and f'href="?ply={min(ply + 1, PLIES)}"' in html
    assert 'href="?ply=0"' in html and f'href="?ply={PLIES}"' in html
    assert f"{reverse('games:diagram', args=[played.pk])}?ply={ply}" in html
    current = re.findall(r'<a href="\?ply=(\d+)" aria-current="step">', html)
    assert current == ([str(ply)] if ply else [])


def test_replay_defaults_to_the_last_position_and_marks_captures(client, played):
    moves, final = greedy_game(PLIES)
    html = client.get(replay_url(played)).content.decode()
    assert pieces_on_page(html) == (final.dwarf_count, final.troll_count)
    # Ply 6 is "T E5-D4 xD3 xC4": both captured squares are marked and listed.
    html = client.get(replay_url(played, 6)).content.decode()
    assert "D3, C4" in html or "C4, D3" in html
    assert html.count(" captured") >= 2
    assert "js/replay.js" in html and "jsi18n" in html


@pytest.mark.parametrize("bad", ["-1", "x", "99", "1.5", ""])
def test_bad_ply_is_a_400_with_a_message(client, played, bad):
    r = client.get(replay_url(played, bad))
    assert r.status_code == 400 and b"ply must be a whole number" in r.content
    r = client.get(f"{reverse('games:diagram', args=[played.pk])}?ply={bad}")
    assert r.status_code == 400


def test_diagram_at_a_ply_shows_that_position(client, played):
    r = client.get(f"{reverse('games:diagram', args=[played.pk])}?ply=1")
    html = r.content.decode()
    after_one = Position.initial().apply(
        next(m for m in Position.initial().legal_moves() if str(m) == greedy_game(1)[0][0])
    )
    assert pieces_on_page(html) == (after_one.dwarf_count, after_one.troll_count)
    assert "Trolls to move" in html and replay_url(played, 1) in html


def test_replay_of_a_draft_round_is_hidden(client, played):
    Round.objects.filter(pk=played.match.round_id).update(status=Round.Status.DRAFT)
    assert client.get(replay_url(played)).status_code == 404
    assert client.get(replay_url(played, 0).replace(str(played.pk), "999999")).status_code == 404


def test_battle_and_match_pages_link_the_replay_once_there_are_moves(client):
    match = make_match(variant="quickfire24")[0]
    b1, b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    match_url = reverse("games:match", args=[match.pk])
    assert replay_url(b1) not in client.get(match_url).content.decode()
    assert replay_url(b1) not in client.get(reverse("games:battle", args=[b1.pk])).content.decode()
    play_through_site(client, Battle.objects.get(pk=b1.pk), 1)
    client.logout()
    html = client.get(match_url).content.decode()
    assert replay_url(b1) in html and replay_url(b2) not in html
    assert reverse("games:record", args=[b2.pk]) in html
    assert replay_url(b1) in client.get(reverse("games:battle", args=[b1.pk])).content.decode()


def test_replay_query_count_does_not_grow_with_moves(client):
    def battle_with(plies: int) -> Battle:
        match = make_match(variant="quickfire24")[0]
        b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
        battle = play_through_site(client, start_battle(b1.pk, now=timezone.now()), plies)
        client.logout()
        return battle

    short, long = battle_with(2), battle_with(20)
    with CaptureQueriesContext(connection) as few:
        assert client.get(replay_url(short)).status_code == 200
    with CaptureQueriesContext(connection) as many:
        assert client.get(replay_url(long)).status_code == 200
    assert len(few) == len(many)


def test_a_finished_battle_against_the_computer_has_a_replay_to_analyse_but_no_record_file(
    client,
):
    """A casual battle (here against the computer) is replayed and analysed like a
    tournament's; only the record file, which carries a tournament's tags, stays away."""
    alice = get_user_model().objects.create_user("alice", password="pw-alice-1234")
    battle = computer.start(
        by=alice,
        game="thud",
        level=1,
        side=computer.YOU_FIRST,
        time_control=computer.UNTIMED,
        now=timezone.now(),
    )
    Battle.objects.filter(pk=battle.pk).update(max_plies=2)
    for text in ("d F1-F5", "T G7-F6"):
        battle = Battle.objects.get(pk=battle.pk)
        play.submit_move(
            battle.pk,
            side=battle.side_to_move,
            version=battle.clock_version,
            notation=text,
            now=timezone.now(),
        )
    assert Battle.objects.get(pk=battle.pk).is_finished
    client.force_login(alice)
    html = client.get(reverse("games:battle", args=[battle.pk])).content.decode()
    assert replay_url(battle) in html and "Replay and analysis" in html
    assert reverse("games:record", args=[battle.pk]) not in html

    r = client.get(replay_url(battle, 1))
    html = r.content.decode()
    assert r.status_code == 200
    assert "alice (dwarfs) – The computer, level 1 (trolls)" in " ".join(html.split())
    assert f'action="{reverse("games:analyse", args=[battle.pk])}"' in html
    assert reverse("games:record", args=[battle.pk]) not in html
    assert client.get(reverse("games:record", args=[battle.pk])).status_code == 404
    assert client.get(f"{reverse('games:diagram', args=[battle.pk])}?ply=1").status_code == 200

    client.post(reverse("games:analyse", args=[battle.pk]))
    assert BattleAnalysis.objects.get(battle=battle).status == BattleAnalysis.Status.QUEUED
    assert client.get(reverse("games:analysis", args=[battle.pk])).status_code == 200
