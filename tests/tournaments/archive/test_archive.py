"""The tournament archive: export and import on one database, users by username, every
refusal with its message and nothing written, the commands' edges and the web pages.

One event is built once for the module (``event.build_event``) and rolled back: each test
starts from an empty database and imports its archive, as another installation would.
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from tests.factories import UserFactory, tournament_with_players
from tests.tournaments.archive.conftest import run_queued_imports
from tests.tournaments.archive.event import build_event
from tournaments.archive.document import build_document, dumps
from tournaments.archive.sections import iso
from tournaments.archive.validation import ArchiveError, read_archive
from tournaments.archive.writer import import_archive
from tournaments.models.entries import EntryChange
from tournaments.models.imports import ArchiveImport
from tournaments.models.people import Player
from tournaments.models.ratings import RatingChange
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.permissions.roles import ORGANISERS_GROUP

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]
TABLES = (Tournament, Player, Entry, EntryChange, Round, Match, ResultVersion, Battle, Move)
TABLES += (ClockEvent, get_user_model())
USERS = ("arc-org", "arc-co", "arc-ref1", "arc-ref2", *(f"arc-player{n}" for n in range(1, 5)))


class Rollback(Exception):
    pass


@pytest.fixture(scope="module")
def archive_text(django_db_setup, django_db_blocker) -> str:
    """The archive of a six-player event, which is then rolled back."""
    with django_db_blocker.unblock():
        try:
            with transaction.atomic():
                event = build_event(6)
                text = dumps(build_document(event.t, now=timezone.now()))
                raise Rollback
        except Rollback:
            pass
    return text


@pytest.fixture
def document(archive_text) -> dict:
    return json.loads(archive_text)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in TABLES}


def without_stamp(document: dict) -> dict:
    document = copy.deepcopy(document)
    del document["exported_at"], document["tournament"]["slug"]
    return document


def test_an_imported_tournament_exports_the_same_archive_but_its_people(document):
    """What names people is not taken from the file (``test_untrusted``): the importer
    organises, nobody is appointed, the players have no account; the rest is the same."""
    for name in USERS:
        get_user_model().objects.create_user(name)
    importer = UserFactory(username="importer")

    t = import_archive(document, slug="copy", by=importer, rated=True, now=timezone.now())

    assert t.slug == "copy" and t.owner == importer
    expected = without_stamp(document)
    expected["tournament"] |= {"organiser": "importer", "co_organisers": [], "referees": []}
    for entry in expected["entries"]:
        entry["player"]["username"] = None
    assert without_stamp(build_document(t, now=timezone.now())) == expected
    assert len(document["sections"]["battles"]) == 2
    assert sum(len(b["moves"]) for b in document["sections"]["battles"]) == 16


def test_users_missing_here_are_kept_as_names_in_the_histories(document, client):
    t = import_archive(document, now=timezone.now())

    assert t.owner is None and not t.referees.exists() and not t.co_organisers.exists()
    assert not Player.objects.filter(user__isnull=False).exists()
    corrected = ResultVersion.objects.get(match__round__number=2, match__table=1, number=2)
    assert (corrected.entered_by, corrected.entered_by_name) == (None, "arc-ref1")
    assert corrected.confirmed_by_name == "arc-ref2"
    # The referee's match page shows the history with those names.
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("referee_match", args=[t.slug, corrected.match_id])).content.decode()
    assert "Entered by arc-ref1" in page and "Confirmed by arc-ref2" in page
    assert "Slip misread: the survivors were 3 each" in page
    change = EntryChange.objects.get(field="name")
    page = client.get(reverse("organiser_edit_player", args=[t.slug, change.entry_id]))
    assert "by arc-org" in page.content.decode()


def broken(document: dict, change) -> str:
    document = copy.deepcopy(document)
    change(document)
    return json.dumps(document)


def first_match(d: dict) -> dict:
    return d["rounds"][0]["matches"][0]


def set_(path, value):
    def change(d):
        *parents, last = path(d)
        target = d
        for key in parents:
            target = target[key]
        target[last] = value

    return change


CASES = {
    "truncated": (lambda text: text[: len(text) // 2], "not valid JSON (line"),
    "not UTF-8": (lambda text: text.encode("utf-16"), "not UTF-8"),
    "not an archive": (lambda text: "[1, 2]", "not a tournament archive"),
    "wrong version": (
        lambda text: text.replace('"version": 1,', '"version": 2,'),
        "version 2 is not known",
    ),
    "a part missing": (
        lambda text: broken(json.loads(text), lambda d: d.pop("rounds")),
        "the document: 'rounds' is a required property",
    ),
    "duplicate tables": (
        lambda text: broken(
            json.loads(text), lambda d: d["rounds"][2]["matches"][1].update(table=1)
        ),
        "rounds[2].matches[1]: table 1 appears twice",
    ),
    "survivors out of range": (
        lambda text: broken(
            json.loads(text), lambda d: first_match(d)["versions"][0].update(result=[33, 0, 0, 0])
        ),
        "rounds[0].matches[0]: versions[0]:",
    ),
    "a battle of a match that does not exist": (
        lambda text: broken(
            json.loads(text), lambda d: d["sections"]["battles"][0].update(table=99)
        ),
        "sections.battles[0]: no match at table 99 of round 1",
    ),
    "a match of an entry that does not exist": (
        lambda text: broken(json.loads(text), lambda d: first_match(d).update(b=99)),
        "rounds[0].matches[0]: no entry has key 99",
    ),
    "counts a version it does not have": (
        lambda text: broken(json.loads(text), lambda d: first_match(d).update(confirmed_version=7)),
        "counts version 7, which is not a confirmed version",
    ),
    "two confirmed versions": (
        lambda text: broken(
            json.loads(text),
            lambda d: d["rounds"][1]["matches"][0]["versions"][0].update(status="confirmed"),
        ),
        "rounds[1].matches[0]: more than one confirmed version (1, 2)",
    ),
    "a time without its offset": (
        lambda text: broken(
            json.loads(text), lambda d: d["rounds"][0].update(created_at="2026-05-01T10:00:00")
        ),
        "rounds[0].created_at: '2026-05-01T10:00:00' is not a 'date-time'",
    ),
    "an unknown game": (
        lambda text: broken(json.loads(text), lambda d: d["tournament"].update(game="chess")),
        "tournament.game: this installation has no game 'chess'",
    ),
    "an unknown section": (
        lambda text: broken(json.loads(text), lambda d: d["sections"].update(ratings=[])),
        "sections.ratings: this installation has no such section",
    ),
    "a battle's players not its match's": (
        lambda text: broken(
            json.loads(text), lambda d: d["sections"]["battles"][0].update(first=6)
        ),
        "sections.battles[0]: its players are not the players of its match",
    ),
    "a forbidden pair twice": (
        lambda text: broken(
            json.loads(text), lambda d: d["forbidden_pairs"].append(d["forbidden_pairs"][0][::-1])
        ),
        "forbidden_pairs[1]: this pair appears twice",
    ),
    "an entry twice in a round": (
        lambda text: broken(
            json.loads(text), lambda d: d["rounds"][0]["matches"][1].update(a=first_match(d)["a"])
        ),
        "rounds[0].matches[1]: entry",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_malformed_archive_is_refused_with_its_problem_and_nothing_is_written(
    case, archive_text, tmp_path
):
    spoil, message = CASES[case]
    path = tmp_path / "spoilt.json"
    spoilt = spoil(archive_text)
    (path.write_bytes if isinstance(spoilt, bytes) else path.write_text)(spoilt)
    before = counts()

    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path))

    assert message in str(refused.value)
    assert counts() == before


def test_the_same_archive_twice_is_refused_and_writes_nothing(archive_text, tmp_path):
    path = tmp_path / "archive.json"
    path.write_text(archive_text)
    call_command("import_tournament", str(path), stdout=io.StringIO())
    before = counts()

    with pytest.raises(CommandError, match="archive-open exists here already"):
        call_command("import_tournament", str(path))
    with pytest.raises(CommandError, match="'no good!' is not a valid address"):
        call_command("import_tournament", str(path), "--slug", "no good!")

    assert counts() == before


def test_a_refusal_mid_write_rolls_everything_back(document):
    """What the database refuses half-way (here a table twice in a round, which
    ``read_archive`` would have refused first) is told as a refusal and leaves nothing."""
    first_match(document)["table"] = document["rounds"][0]["matches"][1]["table"]
    before = counts()

    with pytest.raises(ArchiveError, match="could not be written, nothing was"):
        import_archive(document, now=timezone.now())

    assert counts() == before


def test_the_commands_read_stdin_and_write_stdout_and_refuse_in_one_line(archive_text):
    out = io.StringIO()
    t = import_archive(read_archive(archive_text), slug="from-file", now=timezone.now())
    call_command("export_tournament", t.slug, stdout=out)
    assert json.loads(out.getvalue())["tournament"]["slug"] == "from-file"

    refused = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", "-"],
        input=archive_text[:100],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode != 0
    assert refused.stderr.strip().count("\n") == 0 and "not valid JSON" in refused.stderr
    with pytest.raises(CommandError, match="No tournament with slug 'nowhere'"):
        call_command("export_tournament", "nowhere")


def test_read_archive_refuses_a_newer_version_before_its_structure():
    with pytest.raises(ArchiveError, match="version 9 is not known"):
        read_archive(json.dumps({"format": "thud-tournament-archive", "version": 9}))


# --------------------------------------------------------------------------- the web


def test_the_organiser_downloads_the_archive_from_the_dashboard(client):
    t = tournament_with_players(3, slug="web-cup")
    referee = UserFactory()
    t.referees.add(referee)
    client.force_login(t.owner)
    url = reverse("organiser_archive", args=[t.slug])

    assert url in client.get(reverse("organiser_dashboard", args=[t.slug])).content.decode()
    response = client.get(url)

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="web-cup-archive.json"'
    assert read_archive(response.content)["entries"][2]["seed"] == 3
    client.force_login(referee)
    assert client.get(url).status_code == 403
    client.logout()
    assert client.get(url).status_code == 302  # to the log-in page


def test_uploading_an_archive_recreates_it_and_the_importer_organises_it(document, client):
    creator = UserFactory()
    creator.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    client.force_login(UserFactory())
    page = reverse("organiser_import_archive")
    assert client.get(page).status_code == 403  # not allowed to create tournaments
    client.force_login(creator)
    assert (
        reverse("organiser_import_archive") in client.get(reverse("organiser_new")).content.decode()
    )
    assert client.get(page).status_code == 200

    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "archive.json"
    response = client.post(page, {"file": upload, "slug": "on-the-web"})
    [job] = run_queued_imports()  # the import job, as the default worker runs it

    assert response.status_code == 302
    assert response["Location"] == reverse("organiser_archive_import", args=[job.pk])
    done = client.get(response["Location"]).content.decode()
    assert reverse("organiser_dashboard", args=["on-the-web"]) in done
    assert Tournament.objects.get(slug="on-the-web").owner == creator  # no arc-org here


def test_a_refused_upload_says_why_and_writes_nothing(document, client):
    client.force_login(UserFactory(is_superuser=True))
    first_match(document)["table"] = document["rounds"][0]["matches"][1]["table"]
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "archive.json"
    before = counts()

    response = client.post(reverse("organiser_import_archive"), {"file": upload})
    [job] = run_queued_imports()  # the import job, as the default worker runs it

    assert job.state == ArchiveImport.State.FAILED
    shown = client.get(response["Location"]).content.decode()
    assert "Nothing was imported: rounds[0].matches[1]: table" in shown
    assert counts() == before


def test_the_rated_setting_and_the_rounds_finishing_times_travel(document):
    assert document["tournament"]["rated"] is True
    finished = [r["finished_at"] for r in document["rounds"] if r["status"] == "finished"]
    assert finished and all(finished)
    # Three tournaments (renamed: the same one twice would be a copy, test_copies.py).
    unrated = copy.deepcopy(document)
    unrated["tournament"] |= {"rated": False, "name": "Unrated Open"}
    t = import_archive(unrated, slug="unrated-copy", now=timezone.now())
    assert t.rated is False and not t.is_copy
    assert not RatingChange.objects.exists()  # an unrated archive rates nobody
    too = copy.deepcopy(document)
    too["tournament"]["name"] = "Unrated Too"
    assert not import_archive(too, slug="unrated-too", now=timezone.now()).rated
    assert not RatingChange.objects.exists()  # nor a rated one, unless an administrator says
    rated = import_archive(document, slug="rated-copy", rated=True, now=timezone.now())
    assert not rated.is_copy
    # Rated, and still nobody is rated until both entries of a match are claimed
    # (tests/tournaments/archive/test_untrusted.py).
    assert rated.rated and rated.imported and not RatingChange.objects.exists()
    times = {r.number: r.finished_at for r in t.round_set.all()}
    assert [iso(times[r["number"]]) for r in document["rounds"] if r["finished_at"]] == finished
    missing = copy.deepcopy(document)
    del missing["tournament"]["rated"]
    with pytest.raises(ArchiveError, match="rated"):
        read_archive(json.dumps(missing))


def test_bots_allowed_travels_and_a_file_from_before_it_imports_with_bots_off(document):
    assert document["tournament"]["allow_bots"] is True  # the event allows bots
    assert import_archive(document, slug="bots-on", now=timezone.now()).allow_bots
    older = copy.deepcopy(document)
    del older["tournament"]["allow_bots"]
    older["tournament"]["name"] = "Older Open"  # another tournament, not a copy
    t = import_archive(read_archive(json.dumps(older)), slug="bots-off", now=timezone.now())
    assert t.allow_bots is False
