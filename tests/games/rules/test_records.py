"""Game records: build -> parse round trips (pure), and records of battles played on the
site, downloaded and replayed by the command line as an outside tool would."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.battles.play import accept_end, offer_end
from games.battles.settle import settle
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.thud.core.records import (
    RecordError,
    ReplayError,
    build_record,
    parse_record,
    parse_records,
    replay,
)
from tests.factories import make_match
from tests.games.records_helpers import greedy_game, play_through_site
from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament
from tournaments.results.entry import confirm_result, enter_result

ROOT = Path(__file__).resolve().parents[3]
VARIANTS = [v.value for v in Tournament.Variant]
POLICIES = [p.value for p in Tournament.CapturePolicy]


# --- pure: build and parse ---------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", POLICIES)
def test_record_round_trips_for_every_variant_and_policy(variant, policy):
    moves, final = greedy_game(30, policy, forfeit_at=9)
    assert any(m and " x" in m for m in moves)  # captures are part of the game
    tags = {
        "Event": "Ankh-Morpork Open",
        "Round": "3",
        "Table": "2",
        "Battle": "1",
        "Dwarfs": "Agnes Nitt",
        "Trolls": "Detritus",
        "Variant": variant,
        "CapturePolicy": policy,
        "Result": f"{final.dwarf_count}-{final.troll_count}",
        "Termination": "move_limit",
    }
    text = build_record(tags, moves)
    record = parse_record(text)
    assert record.tags == tags
    assert record.moves == tuple(moves)
    assert record.policy.value == policy
    assert replay(record.moves, record.policy)[-1] == final


def test_record_text_has_the_documented_shape():
    text = build_record(
        {"Event": "E", "Round": "3", "Table": "2", "Battle": "1", "Result": "32-8"},
        ["d F1-F5", "T G7-F6", None],
    )
    assert text == (
        '[Event "E"]\n[Round "3"] [Table "2"] [Battle "1"]\n[Result "32-8"]\n\n'
        "1. d F1-F5 T G7-F6 2. --\n"
    )


def test_tag_values_escape_quotes_and_backslashes():
    tags = {"Event": 'The "Big" C:\\Open', "Dwarfs": "A \\ B"}
    text = build_record(tags, [])
    assert r'[Event "The \"Big\" C:\\Open"]' in text
    assert parse_record(text).tags == tags


def test_long_games_wrap_without_splitting_a_move():
    moves, _ = greedy_game(60)
    text = build_record({"Event": "E"}, moves)
    assert all(len(line) <= 79 for line in text.splitlines())
    assert parse_record(text).moves == tuple(moves)


def test_compact_notation_and_unsorted_captures_are_read_canonically():
    record = parse_record('[Event "E"]\n1. dF1-F5 TG7-F6xF5xE5')
    assert record.moves == ("d F1-F5", "T G7-F6 xE5 xF5")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1. d F1-F5", "must start with tag pairs"),
        ('[Event "E" ]\n[Round 3]', "bad tag pair"),
        ('[Event "E"] [Event "F"]', "appears twice"),
        ('[Event "E"]\n1. d F1-F5 2. T G7-F6', "move 1: numbered 2"),
        ('[Event "E"]\n1. d F1-F5 T G7-F6 2. d Z9-F5', "move 2: cannot read"),
        ('[Event "E"]\n1. d F1-F5 * T G7-F6', "after the end marker"),
        ('[Event "E"]\n[CapturePolicy "most"]', "unknown CapturePolicy"),
    ],
)
def test_bad_records_are_refused_with_a_message(text, fragment):
    with pytest.raises(RecordError, match=fragment):
        record = parse_record(text)
        record.policy  # noqa: B018 - the policy tag is checked when read


def test_illegal_move_names_its_move_number():
    moves, _ = greedy_game(6)
    moves[4] = "d F1-F5" if moves[4] != "d F1-F5" else "d G1-G2"  # move 3, dwarfs
    with pytest.raises(ReplayError) as exc:
        replay(moves, "subset")
    assert exc.value.move_number == 3 and "move 3" in str(exc.value)


def test_a_file_of_several_records_parses_each():
    one = build_record({"Event": "E", "Battle": "1"}, ["d F1-F5"])
    two = build_record({"Event": "E", "Battle": "2"}, [])
    records = parse_records(one + "\n" + two)
    assert [(r.tags["Battle"], r.moves) for r in records] == [("1", ("d F1-F5",)), ("2", ())]
    with pytest.raises(RecordError, match="2 records"):
        parse_record(one + "\n" + two)


# --- battles played on the site ------------------------------------------------------------


def run_replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.thud", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.fixture
def online(db):
    match = make_match(variant="quickfire24", capture_policy="subset")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    return start_battle(b1.pk, now=timezone.now())


@pytest.mark.django_db
def test_battle_played_on_the_site_replays_to_its_stored_result(client, online, tmp_path):
    played = play_through_site(client, online, 16)
    offer_end(played.pk, side=played.side_to_move, now=timezone.now())
    accept_end(
        played.pk, side="troll" if played.side_to_move == "dwarf" else "dwarf", now=timezone.now()
    )
    played = Battle.objects.get(pk=played.pk)
    assert played.first_count < 32 and played.second_count < 8  # captures on both sides

    client.logout()
    r = client.get(reverse("games:record", args=[played.pk]))
    assert r.status_code == 200 and r["Content-Type"] == "text/plain; charset=utf-8"
    assert "attachment" in r["Content-Disposition"]
    text = r.content.decode("utf-8")
    assert f'[Result "{played.first_count}-{played.second_count}"]' in text
    assert '[Termination "agreement"]' in text and '[Variant "quickfire24"]' in text

    path = tmp_path / "record.txt"
    path.write_bytes(r.content)
    out = run_replay(path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == f"dwarfs {played.first_count} trolls {played.second_count}"
    assert "\n".join(lines[:-1]) + "\n" == played.board  # the stored final diagram


@pytest.mark.django_db
def test_forfeited_turn_is_written_as_two_dashes_and_replays(client, tmp_path):
    # Long phases: the trolls' turn, started by the expiry, cannot run out during the test.
    match = make_match(variant="timed24", think_ms=600_000, move_ms=600_000)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    b1 = start_battle(b1.pk, now=timezone.now())
    settle(b1.pk, via="sweep", now=b1.deadline + timedelta(milliseconds=100))
    b1 = play_through_site(client, Battle.objects.get(pk=b1.pk), 2, forfeit_at=0)
    text = client.get(reverse("games:record", args=[b1.pk])).content.decode()
    assert "1. -- T " in text
    path = tmp_path / "r.txt"
    path.write_text(text, encoding="utf-8")
    out = run_replay(path)
    assert out.returncode == 0 and out.stdout.splitlines()[-2] == "dwarf"


@pytest.mark.django_db
def test_otb_battle_without_moves_has_tags_and_the_confirmed_result(client, django_user_model):
    match = make_match(variant="classic")[0]
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    tournament = match.round.tournament
    referee = tournament.referees.get()
    version = enter_result(
        match,
        survivors=[20, 3, 25, 6],
        by=tournament.owner,
        expected_lock_version=None,
        now=timezone.now(),
    )
    confirm_result(
        match, version_id=version.pk, by=referee, expected_lock_version=None, now=timezone.now()
    )
    text = client.get(reverse("games:record", args=[b2.pk])).content.decode()
    record = parse_record(text)
    assert record.moves == () and record.tags["Result"] == "25-6"
    assert record.tags["Mode"] == "otb" and record.tags["Battle"] == "2"


@pytest.mark.django_db
def test_record_of_a_draft_round_is_hidden_from_the_public(client, online):
    Round.objects.filter(pk=online.match.round_id).update(status=Round.Status.DRAFT)
    assert client.get(reverse("games:record", args=[online.pk])).status_code == 404
    assert client.get(reverse("games:record", args=[999999])).status_code == 404
    client.force_login(online.match.round.tournament.referees.get())
    assert client.get(reverse("games:record", args=[online.pk])).status_code == 200


@pytest.mark.django_db
def test_tournament_records_file_holds_every_public_battle_in_constant_queries(client):
    def setup(tables: int, plies: int) -> str:
        matches = make_match(variant="quickfire24", tables=tables)
        for m in matches:
            b1, _ = create_battles(m, mode=Battle.Mode.ONLINE, now=timezone.now())
            play_through_site(client, start_battle(b1.pk, now=timezone.now()), plies)
        client.logout()
        return matches[0].round.tournament.slug

    small, large = setup(1, 2), setup(3, 12)
    url = reverse("records", args=[large])
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("records", args=[small]))
    with CaptureQueriesContext(connection) as many:
        r = client.get(url)
    assert len(few) == len(many)
    records = parse_records(r.content.decode("utf-8"))
    assert [(x.tags["Table"], x.tags["Battle"]) for x in records] == [
        (str(t), str(b)) for t in (1, 2, 3) for b in (1, 2)
    ]
    assert all(len(x.moves) == 12 for x in records if x.tags["Battle"] == "1")
    assert client.get(reverse("records", args=["nope"])).status_code == 404
    # A draft round's battles are left out.
    Round.objects.filter(tournament__slug=large).update(status=Round.Status.DRAFT)
    assert parse_records(client.get(url).content.decode()) == []


def test_records_without_moves_stay_apart_in_one_file():
    one = build_record({"Event": "E", "Battle": "1"}, [])
    two = build_record({"Event": "E", "Battle": "2"}, ["d F1-F5"])
    records = parse_records(one + "\n" + two + "\n" + one)
    assert [(r.tags["Battle"], r.moves) for r in records] == [
        ("1", ()),
        ("2", ("d F1-F5",)),
        ("1", ()),
    ]


@pytest.mark.django_db
def test_tournament_page_links_the_records_file(client):
    slug = make_match()[0].round.tournament.slug
    html = client.get(reverse("tournament", args=[slug])).content.decode()
    assert reverse("records", args=[slug]) in html
