"""An imported archive is untrusted input (issue 40): it names no one here without their
consent, rates nobody unless a site administrator says so, its battles are replayed
through their game's engine, none is left on a clock, and every value is bounded.

One event is built once for the module (``event.build_event``) and rolled back: each test
starts from an empty database and imports its archive, as another installation would.
"""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.claims import decide_claim, make_claim
from games.models.battle import Battle
from games.models.history import Move
from tests.factories import UserFactory
from tests.tournaments.archive.conftest import run_queued_imports
from tests.tournaments.archive.event import build_event
from tournaments.archive.document import build_document, dumps
from tournaments.archive.validation import read_archive
from tournaments.archive.writer import import_archive
from tournaments.models.entries import EntryChange
from tournaments.models.imports import ArchiveImport
from tournaments.models.people import Player
from tournaments.models.ratings import RatingChange
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.permissions.roles import ORGANISERS_GROUP

pytestmark = pytest.mark.django_db
TABLES = (Tournament, Player, EntryChange, ResultVersion, Battle, Move)


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


def upload(client, document: dict | str, **data):
    text = document if isinstance(document, str) else json.dumps(document)
    file = io.BytesIO(text.encode())
    file.name = "archive.json"
    return client.post(reverse("organiser_import_archive"), {"file": file, **data})


def organiser():
    user = UserFactory()
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return user


# --------------------------------------------------------------------------- people


def test_an_archive_naming_users_here_links_and_appoints_none_of_them(document):
    someone = Player.objects.create(name="Here", user=UserFactory(username="arc-player1"))
    for name in ("arc-org", "arc-co", "arc-ref1", "arc-ref2", "admin"):
        UserFactory(username=name)
    document["tournament"]["referees"].append("admin")
    importer = UserFactory()

    t = import_archive(read_archive(json.dumps(document)), by=importer, now=timezone.now())

    assert t.owner == importer  # not arc-org: it is not on arc-org's home page as theirs
    assert not t.referees.exists() and not t.co_organisers.exists()
    assert t.entries.get(seed=1).player != someone
    assert list(Player.objects.filter(user__isnull=False)) == [someone]
    versions = ResultVersion.objects.filter(match__round__tournament=t)
    assert not versions.filter(Q(entered_by__isnull=False) | Q(confirmed_by__isnull=False))
    assert versions.filter(entered_by_name="arc-ref1", confirmed_by_name="arc-ref2").exists()
    assert not EntryChange.objects.filter(changed_by__isnull=False).exists()
    assert EntryChange.objects.filter(changed_by_name="arc-org").exists()


def test_an_uploaded_rated_archive_rates_nobody_until_an_administrator_marks_it(document, client):
    assert document["tournament"]["rated"] and document["rounds"][0]["finished_at"]
    victim = Player.objects.create(name="Victim", user=UserFactory(username="arc-player1"))
    client.force_login(organiser())

    response = upload(client, document, slug="farm")
    run_queued_imports()  # the import job, as the default worker runs it

    assert response.status_code == 302
    t = Tournament.objects.get(slug="farm")
    assert not t.rated and not RatingChange.objects.exists()
    # A site administrator marks it rated: still nobody is rated while its entries are
    # the file's word only ...
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    changelist = reverse("admin:tournaments_tournament_changelist")
    client.post(changelist, {"action": "mark_rated", "_selected_action": [t.pk]})
    t.refresh_from_db()
    assert t.rated and t.imported and not RatingChange.objects.exists()
    # ... then one match's two players claim their entries, an organiser approves, and
    # that match is rated: for the two claimed players only, never the victim.
    match = Match.objects.filter(round__tournament=t, player_b__isnull=False).first()
    claimed = [match.player_a.player, match.player_b.player]
    for player, rated_yet in zip(claimed, (False, True), strict=True):
        claim = make_claim(user=UserFactory(), player=player)
        decide_claim(claim, approve=True, by=t.owner, now=timezone.now())
        assert RatingChange.objects.exists() == rated_yet
    rated = set(RatingChange.objects.values_list("player", flat=True))
    assert rated == {p.pk for p in claimed}
    assert not RatingChange.objects.filter(player=victim).exists()


def test_the_command_keeps_the_rated_setting_only_when_told(archive_text, tmp_path):
    path = tmp_path / "archive.json"
    path.write_text(archive_text)
    # Another tournament (renamed): the same one twice would be an unrated copy (test_copies).
    other = tmp_path / "other.json"
    other.write_text(archive_text.replace('"name": "Archive Open"', '"name": "Archive Kept"'))
    call_command("import_tournament", str(path), "--slug", "plain", stdout=io.StringIO())
    call_command("import_tournament", str(other), "--slug", "kept", "--rated", stdout=io.StringIO())

    assert not Tournament.objects.get(slug="plain").rated
    assert Tournament.objects.get(slug="kept").rated
    # Rated, yet nobody is rated until two entries of a match are claimed (test above).
    assert not RatingChange.objects.exists()


# --------------------------------------------------------------------------- battles


def battle(d: dict) -> dict:
    return d["sections"]["battles"][0]


def spoil(change):
    def spoilt(text: str) -> str:
        d = json.loads(text)
        change(d)
        return json.dumps(d)

    return spoilt


def running(d: dict) -> None:
    battle(d).update(
        status="running",
        finished_reason="",
        winner="",
        scores={},
        board="not a board",
        deadline="2026-01-01T10:00:00+00:00",
        outage_threshold_ms=2_000_000_000,
    )


def over_the_board(d: dict) -> None:
    battle(d).update(mode="otb", board="", scores={}, winner="")


def illegal_over_the_board(d: dict) -> None:
    over_the_board(d)
    battle(d)["moves"][3]["notation"] = "Z99-Z98"


def first_capture(d: dict) -> dict:
    return next(m for m in battle(d)["moves"] if m["captures"])


CASES = {
    "a board its moves do not reach": (
        spoil(lambda d: battle(d).update(board="not a board")),
        "sections.battles[0]: its board is not the position its moves reach.",
    ),
    "a running battle with a bad board": (
        spoil(running),
        "sections.battles[0]: its board is not the position its moves reach.",
    ),
    "an illegal move": (
        spoil(lambda d: battle(d)["moves"][3].update(notation="Z99-Z98")),
        "sections.battles[0]: moves[3]: 'Z99-Z98' is not a legal move there.",
    ),
    "a move by the wrong side": (
        spoil(lambda d: battle(d)["moves"][2].update(side=battle(d)["moves"][1]["side"])),
        "sections.battles[0]: moves[2]: played by",
    ),
    "invented captures": (
        spoil(lambda d: first_capture(d).update(captures=[])),
        "sections.battles[0]: moves[",
    ),
    "invented scores": (
        spoil(
            lambda d: battle(d).update(scores={k: v + 1 for k, v in battle(d)["scores"].items()})
        ),
        "sections.battles[0]: its scores are not the replayed position's",
    ),
    "an invented winner": (
        spoil(
            lambda d: battle(d).update(
                winner="troll" if battle(d)["winner"] != "troll" else "dwarf"
            )
        ),
        "sections.battles[0]: its winner is not the one",
    ),
    "an illegal move typed in over the board": (
        spoil(illegal_over_the_board),
        "sections.battles[0]: moves[3]: 'Z99-Z98' is not a legal move there.",
    ),
    "a ply its moves do not make": (
        spoil(lambda d: battle(d).update(ply=3)),
        "sections.battles[0]: it is at ply 3 but has 8 moves.",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_battle_that_does_not_replay_is_refused_with_its_place_and_nothing_is_written(
    case, archive_text, tmp_path
):
    change, message = CASES[case]
    path = tmp_path / "spoilt.json"
    path.write_text(change(archive_text))
    before = counts()

    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path))

    assert message in str(refused.value)
    assert counts() == before


def test_a_battle_over_the_board_with_its_moves_typed_in_is_imported(document):
    over_the_board(document)

    t = import_archive(read_archive(json.dumps(document)), now=timezone.now())

    imported = Battle.objects.get(match__round__tournament=t, match__table=1, number=1)
    assert imported.mode == "otb" and imported.moves.count() == 8


@pytest.mark.parametrize("status", ["running", "paused", "needs_referee"])
def test_a_battle_being_played_is_imported_as_unfinished_history_with_no_clock(status, document):
    past = "2026-01-01T10:00:00+00:00"
    battle(document).update(
        status=status,
        finished_reason="",
        winner="",
        scores={},
        deadline=past if status == "running" else None,
        turn_started_at=past,
        paused_remaining_ms=None if status == "running" else 5000,
        paused_reason="" if status == "running" else "referee",
    )

    t = import_archive(read_archive(json.dumps(document)), now=timezone.now())

    imported = Battle.objects.get(match__round__tournament=t, match__table=1, number=1)
    assert (imported.status, imported.finished_reason) == ("finished", "unfinished")
    assert imported.winner == "" and imported.scores == {}
    assert (imported.deadline, imported.turn_started_at, imported.paused_remaining_ms) == (
        None,
        None,
        None,
    )
    assert imported.moves.count() == 8  # the history is kept
    assert not Battle.objects.filter(status__in=["running", "paused", "needs_referee"]).exists()


# --------------------------------------------------------------------------- bounds


def digits(d: dict) -> None:
    d["rounds"][0]["seed"] = "BIG"


def nested(levels: int):
    def change(d: dict) -> None:
        value: object = 1
        for _n in range(levels):
            value = {"x": value}
        battle(d)["scores"] = value

    return change


BOUNDS = {
    "a NUL in the name": (
        spoil(lambda d: d["tournament"].update(name="Open\u0000")),
        "tournament.name: a text holds a NUL character.",
    ),
    "a NUL in the venue": (
        spoil(lambda d: d["tournament"].update(venue="Hall\u0000")),
        "tournament.venue: a text holds a NUL character.",
    ),
    "a NUL in the announcement": (
        spoil(lambda d: d["tournament"].update(announcement="\u0000")),
        "tournament.announcement: a text holds a NUL character.",
    ),
    "a 5,000-digit number": (
        lambda text: spoil(digits)(text).replace('"BIG"', "9" * 5000),
        "rounds[0].seed: a number of 5000 digits; at most 19.",
    ),
    "nesting within Python's limit": (
        spoil(nested(40)),
        "sections.battles[0].scores.x.x.x.x.x.x.x.x.x: nested more than 12 levels deep.",
    ),
    "nesting beyond Python's limit": (
        lambda text: text.replace(
            '"sections": {', '"sections": {"deep": ' + "[" * 100_000 + "]" * 100_000 + ", ", 1
        ),
        "The file is nested more than 12 levels deep.",
    ),
    "a 20,000-character reason": (
        spoil(lambda d: d["rounds"][0]["matches"][0]["versions"][0].update(reason="x" * 20_000)),
        "rounds[0].matches[0].versions[0].reason: a text of 20000 characters; at most 10000.",
    ),
    "a 600-character reason": (
        spoil(lambda d: d["rounds"][0]["matches"][0]["versions"][0].update(reason="x" * 600)),
        "rounds[0].matches[0].versions[0].reason: 600 characters or items; at most 500.",
    ),
    "Infinity": (
        lambda text: text.replace('"initial_points": 0', '"initial_points": Infinity', 1),
        "The file holds Infinity, which is not a number.",
    ),
    "the address new": (
        spoil(lambda d: d["tournament"].update(slug="new")),
        "'new' is reserved for a page of the site",
    ),
}


@pytest.mark.parametrize("case", BOUNDS)
def test_a_value_out_of_bounds_is_refused_with_its_place_and_nothing_is_written(
    case, archive_text, tmp_path
):
    change, message = BOUNDS[case]
    path = tmp_path / "spoilt.json"
    path.write_text(change(archive_text))
    before = counts()

    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path))

    assert message in str(refused.value)
    assert counts() == before


def test_an_upload_with_a_nul_or_the_address_new_says_why_and_writes_nothing(document, client):
    client.force_login(organiser())
    before = counts()
    with_nul = copy.deepcopy(document)
    with_nul["tournament"]["venue"] = "Hall\u0000"

    refused = upload(client, with_nul)
    new = upload(client, document, slug="new")
    jobs = run_queued_imports()  # the import jobs, as the default worker runs them

    assert [job.state for job in jobs] == [ArchiveImport.State.FAILED] * 2
    refused_page = client.get(refused["Location"]).content.decode()
    new_page = client.get(new["Location"]).content.decode()
    assert "tournament.venue: a text holds a NUL character." in refused_page
    assert "is reserved for a page of the site" in new_page
    assert counts() == before
