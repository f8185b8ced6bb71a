"""A referee types in the moves of a finished over-the-board battle (optional per
tournament): checked by the engine, stored as moves, then in the record and the replay."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.play import submit_move
from games.battles.referee import referee_decision
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.models.history import Move
from games.thud.core.records import build_record, parse_record
from tests.factories import make_match
from tests.games.records_helpers import greedy_game

pytestmark = pytest.mark.django_db


def finished_otb(record_otb_moves: bool = True) -> Battle:
    match = make_match(variant="classic", record_otb_moves=record_otb_moves)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    b1 = Battle.objects.get(pk=b1.pk)
    submit_move(
        b1.pk, side="dwarf", version=b1.clock_version, now=timezone.now()
    )  # a "moved" press
    return referee_decision(b1.pk, reason="over", now=timezone.now())


def as_referee(client, battle: Battle):
    client.force_login(battle.match.round.tournament.referees.get())
    return client


def url(battle: Battle) -> str:
    return reverse("games:otb_moves", args=[battle.pk])


def test_entered_moves_are_checked_stored_and_shown_in_record_and_replay(client):
    battle = finished_otb()
    moves, final = greedy_game(12, forfeit_at=3)
    as_referee(client, battle)
    page = client.get(url(battle))
    assert page.status_code == 200 and b'name="moves"' in page.content
    # Move numbers are optional and compact notation is accepted.
    text = " ".join("--" if m is None else m.replace(" ", "") for m in moves)
    r = client.post(url(battle), {"moves": text})
    assert r.status_code == 302 and r["Location"] == reverse("games:replay", args=[battle.pk])
    stored = list(Move.objects.filter(battle=battle).order_by("ply"))
    assert [m.notation or None for m in stored] == moves
    assert stored[3].kind == "forfeit" and any(m.captures for m in stored)
    record = parse_record(client.get(reverse("games:record", args=[battle.pk])).content.decode())
    assert record.moves == tuple(moves)
    html = client.get(reverse("games:replay", args=[battle.pk])).content.decode()
    assert html.count("has-troll") == final.troll_count
    # The form shows what is stored, ready to correct.
    assert moves[0] in client.get(url(battle)).content.decode()


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1. d F1-F5 T G7-F6 2. d F5-F1 T F6-F5 3. d F1-P8", 3),
        ("d F1-F5 T G7-F6 T F6-F5", 2),
        ("1. d F1-F5 T G7-F6 2. d F5-Z1", 2),
    ],
)
def test_a_bad_move_is_named_by_its_number_and_nothing_is_saved(client, text, number):
    battle = finished_otb()
    before = list(Move.objects.filter(battle=battle).values_list("ply", "notation", "kind"))
    as_referee(client, battle)
    r = client.post(url(battle), {"moves": text})
    assert r.status_code == 400
    assert f"Move {number} cannot be read or is not legal" in r.content.decode()
    assert text in r.content.decode()  # the referee's text is kept for correction
    after = list(Move.objects.filter(battle=battle).values_list("ply", "notation", "kind"))
    assert after == before and before == [(0, "", "otb")]


def test_empty_entry_is_refused(client):
    battle = finished_otb()
    as_referee(client, battle)
    r = client.post(url(battle), {"moves": "  "})
    assert r.status_code == 400 and b"at least one move" in r.content


def test_only_referees_and_only_when_the_tournament_records_otb_moves(client):
    battle = finished_otb(record_otb_moves=False)
    as_referee(client, battle)
    assert client.get(url(battle)).status_code == 404
    assert client.post(url(battle), {"moves": "d F1-F5"}).status_code == 404
    battle = finished_otb()
    client.force_login(battle.first_entry.player.user)
    assert client.post(url(battle), {"moves": "d F1-F5"}).status_code == 403
    assert Move.objects.get(battle=battle).notation == ""


def test_a_game_without_a_movetext_reader_takes_no_typed_moves(client):
    """Cavalli has no ``parse_movetext``: its over-the-board battles keep the presses."""
    match = make_match(variant="classic", game="cavalli", record_otb_moves=True)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    b1 = Battle.objects.get(pk=b1.pk)
    submit_move(b1.pk, side="white", version=b1.clock_version, now=timezone.now())
    battle = referee_decision(b1.pk, reason="over", now=timezone.now())
    as_referee(client, battle)
    assert client.get(url(battle)).status_code == 404
    assert client.post(url(battle), {"moves": "C1"}).status_code == 404
    assert Move.objects.get(battle=battle).notation == ""


def test_a_running_otb_battle_takes_no_typed_moves(client):
    match = make_match(variant="classic", record_otb_moves=True)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    as_referee(client, b1)
    assert client.get(url(b1)).status_code == 404


def test_links_to_the_entry_page_for_referees(client):
    battle = finished_otb()
    link = url(battle)
    assert link not in client.get(reverse("games:match", args=[battle.match_id])).content.decode()
    as_referee(client, battle)
    assert link in client.get(reverse("games:match", args=[battle.match_id])).content.decode()
    assert link in client.get(reverse("games:referee_clock", args=[battle.pk])).content.decode()


def test_record_of_otb_battle_with_pressed_moves_only_has_no_moves(client):
    battle = finished_otb()
    # The clock also stored a forfeited turn: without the moves it means nothing.
    Move.objects.create(
        battle=battle,
        ply=1,
        side="troll",
        kind="forfeit",
        submitted_at=battle.updated_at,
        clock_version_before=battle.clock_version,
    )
    record = parse_record(client.get(reverse("games:record", args=[battle.pk])).content.decode())
    assert record.moves == () and record.tags["Termination"] == "referee"
    assert build_record(record.tags, []).count("\n1.") == 0


def test_organiser_settings_page_offers_the_option(client):
    battle = finished_otb(record_otb_moves=False)
    tournament = battle.match.round.tournament
    client.force_login(tournament.owner)
    html = client.get(reverse("organiser_settings", args=[tournament.slug])).content.decode()
    assert 'name="record_otb_moves"' in html
