from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.db import connections
from django.utils import timezone

from tests.factories import TournamentFactory, UserFactory, tournament_with_players
from tournaments.models.people import Player
from tournaments.models.ratings import RatingChange
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.csv_rows import MAX_FILE_BYTES, MAX_ROWS
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def write(tmp_path, text: str):
    path = tmp_path / "file.csv"
    path.write_text(text, encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------- create_tournament


def test_create_tournament_with_every_option():
    UserFactory(username="org")
    run(
        "create_tournament",
        "--name=Koom Valley",
        "--slug=koom",
        "--format=round_robin",
        "--rounds=3",
        "--variant=timed",
        "--policy=all",
        "--owner=org",
    )
    t = Tournament.objects.get(slug="koom")
    assert (t.format, t.rounds, t.variant, t.capture_policy, t.owner.username) == (
        "round_robin",
        3,
        "timed24",
        "all",
        "org",
    )


@pytest.mark.parametrize(
    "extra",
    [["--owner=nobody"], ["--rounds=0"], ["--slug=taken"]],
)
def test_create_tournament_bad_input_changes_nothing(extra):
    TournamentFactory(slug="taken")
    args = ["--name=X", "--slug=new", "--format=swiss", "--rounds=3"]
    with pytest.raises(CommandError):
        run("create_tournament", *args, *extra)
    assert Tournament.objects.count() == 1


# ---------------------------------------------------------------- import_players


def test_import_players_enters_each_row_with_the_next_seed(tmp_path):
    t = tournament_with_players(1)
    path = write(tmp_path, "name,club,country,rating\nVimes,Watch,AM,1500\nAngua,Watch,Norge,\n")
    assert "Imported 2" in run("import_players", t.slug, path)
    entries = list(t.entries.order_by("seed").select_related("player"))
    assert [e.player.name for e in entries[1:]] == ["Vimes", "Angua"]
    assert [e.player.country for e in entries[1:]] == ["AM", "NO"]
    assert [e.seed for e in entries] == [1, 2, 3]
    assert Player.objects.get(name="Angua").rating is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,club,country\nVimes,Watch,AM\n", "Line 1: missing column(s): rating"),
        ("name,club,country,rating\nVimes,Watch,AM,high\n", "Line 2: rating must be a whole"),
        ("name,club,country,rating\nVimes,W,AM,\n,W,AM,\n", "Line 3: the name is empty"),
        ("name,club,country,rating\nVimes,W,AM,\nvimes,W,AM,\n", "Line 3: vimes appears twice"),
        ("name,club,country,rating\nOld Hand,W,AM,\n", "Line 2: Old Hand is already entered"),
        ("name,club,country,rating\nVimes,W,AM,\nAngua,W,Lancre,\n", "Line 3: Lancre is not a"),
    ],
)
def test_import_players_bad_file_names_the_line_and_changes_nothing(tmp_path, text, message):
    t = TournamentFactory()
    Entry.objects.create(tournament=t, player=Player.objects.create(name="Old Hand"), seed=1)
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run("import_players", t.slug, write(tmp_path, text))
    assert Player.objects.count() == 1 and Entry.objects.count() == 1


def cli(monkeypatch, *args) -> int:
    """Run a command as ``manage.py`` would (messages on stderr); its exit code."""
    # run_from_argv closes every connection at the end, the test's own included.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(["manage.py", *args]).execute()
    return exit_.value.code


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("Vimes,W,AM," + "1" + "0" * 30, "Line 2: rating must be between 0 and 4000"),
        ("x" * 5000 + ",W,AM,", "Line 2: name is longer than 120 characters"),
        ("Vi\x00mes,W,AM,", "Line 2: name contains a control character (U+0000)"),
        ('"Lord Vetinari,Palace,GB,2000', "Line 2: a quote opened here is never closed"),
    ],
)
def test_import_players_bad_row_is_a_message_and_an_exit_code_not_a_traceback(
    tmp_path, capsys, monkeypatch, row, message
):
    t = TournamentFactory()
    path = write(tmp_path, f"name,club,country,rating\n{row}\n")
    assert cli(monkeypatch, "import_players", t.slug, path) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not Player.objects.exists()


def test_import_players_refuses_a_file_over_the_size_cap(tmp_path):
    t = TournamentFactory()
    notes = "n" * 500  # an extra column, ignored, but it counts towards the size
    rows = "".join(f"P{i},Club,GB,1500,{notes}\n" for i in range(MAX_FILE_BYTES // 500))
    path = write(tmp_path, "name,club,country,rating,notes\n" + rows)
    with pytest.raises(CommandError, match="too large: at most 2,000,000 bytes"):
        run("import_players", t.slug, path)
    assert not Player.objects.exists()


def test_import_players_refuses_more_rows_than_the_cap(tmp_path):
    t = TournamentFactory()
    rows = "".join(f"P{i},,,\n" for i in range(MAX_ROWS + 1))
    with pytest.raises(CommandError, match="Line 5002: too many rows"):
        run("import_players", t.slug, write(tmp_path, "name,club,country,rating\n" + rows))
    assert not Player.objects.exists()


def test_commands_refuse_an_unknown_slug(tmp_path):
    path = write(tmp_path, "name,club,country,rating\n")
    for command in ("import_players", "import_results"):
        with pytest.raises(CommandError, match="No tournament"):
            run(command, "nope", path)
    with pytest.raises(CommandError, match="No tournament"):
        run("pair_round", "nope")
    with pytest.raises(CommandError, match="No tournament"):
        run("export_standings", "nope")


# ---------------------------------------------------------------- pair_round


def test_pair_round_pairs_publishes_and_prints():
    t = tournament_with_players(3)
    out = run("pair_round", t.slug)
    r = t.round_set.get()
    assert r.status == Round.Status.PUBLISHED
    assert "Round 1" in out and "(bye)" in out


def test_pair_round_refuses_while_the_last_round_is_unfinished():
    t = tournament_with_players(4)
    run("pair_round", t.slug)
    with pytest.raises(CommandError, match="unconfirmed"):
        run("pair_round", t.slug)
    assert t.round_set.count() == 1


# ---------------------------------------------------------------- import_results

HEADER = "round,table,battle1_dwarfs,battle1_trolls,battle2_dwarfs,battle2_trolls\n"


@pytest.fixture
def round_one():
    t = tournament_with_players(4)
    return publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())


def test_import_results_records_confirmed_import_versions(tmp_path, round_one):
    t = round_one.tournament
    path = write(tmp_path, HEADER + "1,1,10,1,5,2\n1,2,0,8,32,0\n")
    assert "Recorded 2" in run("import_results", t.slug, path)
    versions = ResultVersion.objects.all()
    assert {v.source for v in versions} == {ResultVersion.Source.IMPORT}
    assert {v.status for v in versions} == {ResultVersion.Status.CONFIRMED}
    assert round_one.matches.get(table=1).confirmed_version.survivors.as_tuple() == (10, 1, 5, 2)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("1,1,10,1,5\n", "Line 2: 5 cells where the header has 6"),
        ("1,1,10,1,5,\n", "Line 2: battle2_trolls must be a whole number"),
        ("1,1,10,1,5,2\n1,2,x,1,5,2\n", "Line 3: battle1_dwarfs must be a whole number"),
        ("1,1,33,1,5,2\n", "Line 2: battle1_dwarfs must be between 0 and 32"),
        ("1,1,3,9,5,2\n", "Line 2: battle1_trolls must be between 0 and 8"),
        ("1,1,3,1,5,2\n1,9,3,1,5,2\n", "Line 3: there is no table 9"),
        ("2,1,3,1,5,2\n", "Line 2: there is no table 1 in published round 2"),
        ("1,1,3,1,5,2\n1,2,3,1,5,2\n1,1,3,1,5,2\n", "Line 4: round 1 table 1 already appears"),
    ],
)
def test_import_results_bad_file_names_the_line_and_changes_nothing(
    tmp_path, round_one, rows, message
):
    with pytest.raises(CommandError, match=message):
        run("import_results", round_one.tournament.slug, write(tmp_path, HEADER + rows))
    assert not ResultVersion.objects.exists()


def test_import_results_refuses_a_bye_and_a_draft_round_and_changes_nothing(tmp_path):
    t = tournament_with_players(5)
    round_one = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    bye = round_one.matches.get(player_b=None).table
    played = round_one.matches.exclude(player_b=None).first().table
    path = write(tmp_path, HEADER + f"1,{played},3,1,5,2\n1,{bye},3,1,5,2\n")
    with pytest.raises(CommandError, match=f"Line 3: table {bye} is a bye"):
        run("import_results", t.slug, path)
    for m in round_one.matches.exclude(player_b=None):
        m.versions.all().delete()
        record_final_result(m, survivors=(1, 1, 1, 1), by=None, source="import", now=timezone.now())
    pair_next_round(t, by=None, now=timezone.now())  # round 2, still a draft
    path = write(tmp_path, HEADER + "2,1,3,1,5,2\n")
    with pytest.raises(CommandError, match="Line 2: there is no table 1 in published round 2"):
        run("import_results", t.slug, path)
    assert ResultVersion.objects.count() == 2


CAVALLI_HEADER = "round,table,battle1_white,battle1_black,battle2_white,battle2_black\n"


def test_import_results_of_a_cavalli_tournament_follows_its_scale(tmp_path):
    t = tournament_with_players(2, game="cavalli")
    round_one = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    with pytest.raises(CommandError, match="Line 2: battle1_white must be between 0 and 4950"):
        run("import_results", t.slug, write(tmp_path, CAVALLI_HEADER + "1,1,4951,0,0,0\n"))
    # Thud's columns are not Cavalli's: the file names the game's sides.
    with pytest.raises(CommandError, match="missing column.*battle1_white"):
        run("import_results", t.slug, write(tmp_path, HEADER + "1,1,400,0,0,3\n"))
    assert "Recorded 1" in run(
        "import_results", t.slug, write(tmp_path, CAVALLI_HEADER + "1,1,400,0,0,3\n")
    )
    version = round_one.matches.get().confirmed_version
    assert (version.game, version.survivors.as_tuple()) == ("cavalli", (400, 0, 0, 3))


def test_import_results_refuses_a_missing_column(tmp_path, round_one):
    path = write(tmp_path, "round,table,battle1_dwarfs\n1,1,3\n")
    with pytest.raises(CommandError, match="Line 1: missing column"):
        run("import_results", round_one.tournament.slug, path)
    assert not ResultVersion.objects.exists()


def test_import_results_refuses_a_file_over_the_size_cap(tmp_path, round_one):
    path = write(tmp_path, HEADER + "1,1,10,1,5,2\n" * (MAX_FILE_BYTES // 13 + 1))
    with pytest.raises(CommandError, match="too large"):
        run("import_results", round_one.tournament.slug, path)
    assert not ResultVersion.objects.exists()


# ---------------------------------------------------------------- export_standings

COLUMNS = [
    "rank",
    "name",
    "played",
    "match_points",
    "differential",
    "buchholz",
    "sonneborn_berger",
    "battles_won",
]


def test_export_standings_json_and_csv(tmp_path, round_one):
    t = round_one.tournament
    run("import_results", t.slug, write(tmp_path, HEADER + "1,1,10,1,5,2\n1,2,10,1,5,2\n"))
    rows = json.loads(run("export_standings", t.slug, "--format=json"))
    assert len(rows) == 4 and list(rows[0]) == COLUMNS
    assert rows[0]["match_points"] == 2 and rows[0]["played"] == 1
    lines = run("export_standings", t.slug, "--format=csv").splitlines()
    assert lines[0] == ",".join(COLUMNS)
    assert len(lines) == 5


# ---------------------------------------------------------------- load_demo


def test_load_demo_has_a_published_round_and_standings_and_is_idempotent():
    run("load_demo")
    run("load_demo")
    t = Tournament.objects.get(slug="ankh-morpork-open")
    r = t.round_set.get()
    assert r.status == Round.Status.PUBLISHED
    assert ResultVersion.objects.filter(match__round__tournament=t, status="confirmed").count() == 2
    rows = json.loads(run("export_standings", t.slug, "--format=json"))
    assert sum(row["played"] for row in rows) == 4
    # The rated demo event is closed and rated once: its 8 players, 2 periods each.
    rated = Tournament.objects.get(slug="lancre-spring")
    assert rated.status == Tournament.Status.FINISHED
    assert RatingChange.objects.filter(round__tournament=rated).count() == 16


def test_load_demo_adds_a_timed_quickfire_tournament_ready_to_play():
    run("load_demo")
    run("load_demo")
    t = Tournament.objects.get(slug="quickfire-cup")
    assert t.is_timed and t.max_plies == 48
    r = t.round_set.get()
    assert r.status == Round.Status.PUBLISHED
    assert r.matches.count() == 2
    assert all(m.player_a.player.user_id for m in r.matches.all())
