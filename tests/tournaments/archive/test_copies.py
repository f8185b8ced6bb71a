"""Re-importing counts nothing twice (issue 41): an archive of a tournament this site already
holds, under any address, is imported as an unrated copy that counts in no rating and no
site statistic, and says so (``tournaments.archive.copies``).

The first test's original is a real event played here (``event.build_event``), rated,
never exported before: its archive is written by the archive writer and comes back through
the upload job and the command. The others import the archive of an event that is then
rolled back, as another installation's file.
"""

from __future__ import annotations

import copy
import io
import json
import threading
import unicodedata

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from accounts.claims import decide_claim, make_claim
from play import queries as play_queries
from tests.factories import UserFactory
from tests.tournaments.archive.conftest import run_queued_imports
from tests.tournaments.archive.event import build_event
from tournaments.archive.copies import identity_of
from tournaments.archive.document import build_document, dumps
from tournaments.archive.identity import fingerprint
from tournaments.archive.validation import ArchiveError, read_archive
from tournaments.archive.writer import import_archive
from tournaments.models.people import Player
from tournaments.models.ratings import RatedPeriod, RatingChange, SiteRating
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.organising.settings_changes import TournamentFacts, locked_fields
from tournaments.permissions.roles import ORGANISERS_GROUP
from tournaments.rating.reads import history
from tournaments.rating.sources import tournament_periods
from tournaments.reports import loaders

pytestmark = pytest.mark.django_db
NOTICE = "This tournament is a copy of"
ALREADY = "This tournament is already on this site as “Archive Open”"
ORIGINAL_LINK = 'href="/t/archive-open/"'
#: The same on a page, the original's name a link to it.
ALREADY_LINKED = 'already on this site as “<a href="/t/archive-open/">Archive Open</a>”'


def counted_everywhere(client) -> dict:
    """Everything that counts across the site: the statistics (loaders, API, play's site
    figures), the rating fold's inputs and outputs, and every rated player's history."""
    rated = Player.objects.filter(rating_changes__isnull=False).distinct().order_by("pk")
    return {
        "site_stats": loaders.site_stats(game="thud").as_json(),
        "api_stats": client.get("/api/stats").json(),
        "play_stats": sorted(play_queries.site_result_rows(), key=str),
        "glicko_inputs": [s.period for s in tournament_periods("thud")],
        "periods": list(RatedPeriod.objects.values_list("key_a", "key_b", "at").order_by("at")),
        "changes": list(
            RatingChange.objects.values_list("player", "key_a", "key_b", "after_rating").order_by(
                "player", "at", "key_a", "key_b"
            )
        ),
        "ratings": list(SiteRating.objects.values_list("player", "rating").order_by("player")),
        "histories": {
            p.pk: [(c.tournament_slug, c.round_number) for c in history(p, "thud")] for p in rated
        },
    }


def organiser(client):
    user = UserFactory()
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    client.force_login(user)
    return user


def upload(client, text: str, slug: str):
    """The file through the upload page and its job (the task, as the worker runs it);
    then the job's page as the uploader sees it."""
    data = io.BytesIO(text.encode())
    data.name = "archive.json"
    response = client.post(reverse("organiser_import_archive"), {"file": data, "slug": slug})
    [job] = run_queued_imports()
    return job, client.get(response["Location"]).content.decode()


def claim_a_match(t: Tournament) -> None:
    """Two new accounts claim the players of a match of ``t``; its organiser approves."""
    match = Match.objects.filter(round__tournament=t, player_b__isnull=False).first()
    for player in (match.player_a.player, match.player_b.player):
        claim = make_claim(user=UserFactory(), player=player)
        decide_claim(claim, approve=True, by=UserFactory(is_superuser=True), now=timezone.now())


def test_a_tournament_played_here_comes_back_twice_as_copies_that_count_nowhere(client, tmp_path):
    event = build_event(6)
    original = event.t
    assert original.rated and not original.fingerprint  # played here, never exported
    before = counted_everywhere(client)
    assert before["changes"] and before["glicko_inputs"] and before["site_stats"]["battles"]
    assert before["play_stats"]  # round 1, table 1 was played online
    archive = tmp_path / "archive-open.json"
    archive.write_text(dumps(build_document(original, now=timezone.now())))

    # Once through the web under another address ...
    organiser(client)
    job, shown = upload(client, archive.read_text(), "archive-open-again")
    again = Tournament.objects.get(slug="archive-open-again")
    assert job.tournament == again and again.copy_of == original and not again.rated
    assert ALREADY_LINKED in shown and "imported as an unrated copy, not counted in" in shown
    # ... and the same file once more by a site administrator's command, asked rated.
    said = io.StringIO()
    call_command("import_tournament", str(archive), "--slug", "third", "--rated", stdout=said)
    third = Tournament.objects.get(slug="third")
    assert ALREADY in said.getvalue()
    assert third.copy_of == original and not third.rated  # of the original, not of a copy
    assert again.fingerprint == third.fingerprint == identity_of(original)

    # A site administrator's "Mark rated" refuses the copies and rates the rest.
    admin = UserFactory(is_superuser=True, is_staff=True)
    client.force_login(admin)
    changelist = reverse("admin:tournaments_tournament_changelist")
    response = client.post(
        changelist,
        {"action": "mark_rated", "_selected_action": [again.pk, third.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "“Archive Open” was not marked rated: it is a copy of “Archive Open”" in page
    assert "Marked rated." not in page
    assert not Tournament.objects.filter(pk__in=[again.pk, third.pk], rated=True).exists()
    # Its change form offers no "rated" box for a copy.
    form = client.get(reverse("admin:tournaments_tournament_change", args=[third.pk]))
    assert 'name="rated"' not in form.content.decode()
    # Claims on a copy's players rate nobody.
    claim_a_match(third)

    assert counted_everywhere(client) == before
    for rounds in before["histories"].values():  # each player's history: no round twice
        assert rounds and len(set(rounds)) == len(rounds)
    # The copies' pages show their own results, and say whose copy they are.
    # (The site administrator is still logged in: the dashboard is theirs to see too.)
    pages = ("/t/third/", "/t/third/standings/", "/t/archive-open-again/stats/")
    for url in (*pages, reverse("organiser_dashboard", args=["third"])):
        page = client.get(url).content.decode()
        assert NOTICE in page and ORIGINAL_LINK in page, url
    assert loaders.tournament_stats(third) == loaders.tournament_stats(original)
    for url in ("/t/archive-open/", "/t/archive-open/standings/"):
        assert NOTICE not in client.get(url).content.decode(), url


class Rollback(Exception):
    pass


@pytest.fixture(scope="module")
def archive_text(django_db_setup, django_db_blocker) -> str:
    """The archive of a six-player event, which is then rolled back."""
    with django_db_blocker.unblock():
        try:
            with transaction.atomic():
                text = dumps(build_document(build_event(6).t, now=timezone.now()))
                raise Rollback
        except Rollback:
            pass
    return text


@pytest.fixture
def document(archive_text) -> dict:
    return json.loads(archive_text)


def test_a_file_that_only_changes_the_address_is_the_same_tournament(document):
    first = import_archive(document, now=timezone.now())
    moved = copy.deepcopy(document)
    moved["tournament"]["slug"] = "moved-elsewhere"
    moved["exported_at"] = "2030-01-01T00:00:00+00:00"
    moved["tournament"]["created_at"] = "2020-01-01T00:00:00+00:00"

    second = import_archive(moved, now=timezone.now())

    assert not first.is_copy and second.slug == "moved-elsewhere"
    assert second.copy_of == first and not second.rated


def test_an_edited_file_is_another_tournament_and_counts(document, client):
    """A file is the tournament its content says: renamed, or with one result changed, it
    is another one (and, imported unrated, rates nobody until an administrator says)."""
    first = import_archive(document, now=timezone.now())
    stats = loaders.site_stats(game="thud")
    renamed = copy.deepcopy(document)
    renamed["tournament"]["name"] = "Archive Open (the real one)"
    other_result = copy.deepcopy(document)
    versions = other_result["rounds"][1]["matches"][1]["versions"]
    versions[-1]["result"][0] = (versions[-1]["result"][0] + 1) % 30

    for edited, slug in ((renamed, "renamed"), (other_result, "other-result")):
        t = import_archive(edited, slug=slug, now=timezone.now())
        assert not t.is_copy and t.fingerprint == fingerprint(edited) != first.fingerprint

    # Both count for the site (three tournaments now); the first's copy would not.
    assert loaders.site_stats(game="thud").battles == 3 * stats.battles
    import_archive(document, slug="a-copy", now=timezone.now())
    assert loaders.site_stats(game="thud").battles == 3 * stats.battles


def test_an_import_renamed_here_is_still_recognised_by_its_files_identity(document):
    first = import_archive(document, now=timezone.now())
    Tournament.objects.filter(pk=first.pk).update(name="Archive Open 2026")
    first.refresh_from_db()
    assert identity_of(first) != first.fingerprint == fingerprint(document)

    again = import_archive(document, slug="again", now=timezone.now())

    assert again.copy_of == first


def test_a_file_cannot_claim_its_identity_or_its_original(document):
    for field, value in (("fingerprint", "0" * 64), ("copy_of", "archive-open")):
        claiming = copy.deepcopy(document)
        claiming["tournament"][field] = value
        with pytest.raises(ArchiveError, match=field):
            read_archive(json.dumps(claiming))
    assert not Tournament.objects.exists()


def test_a_copy_is_never_rated_whoever_asks(document):
    import_archive(document, now=timezone.now())
    the_copy = import_archive(document, slug="the-copy", rated=True, now=timezone.now())
    assert the_copy.is_copy and not the_copy.rated
    # The organiser's settings lock the box ...
    facts = TournamentFacts(format="swiss", rounds=5, copy=True)
    assert "copy" in locked_fields(facts)["rated"]
    assert "rated" not in locked_fields(TournamentFacts(format="swiss", rounds=5))
    # ... and the database refuses it from anywhere else.
    the_copy.rated = True
    with pytest.raises(IntegrityError, match="copy_never_rated"), transaction.atomic():
        the_copy.save(update_fields=["rated"])


def test_a_copy_found_through_another_copy_names_the_original(document):
    original = import_archive(document, now=timezone.now())
    first_copy = import_archive(document, slug="first-copy", now=timezone.now())
    # The original no longer matches by itself (renamed here, identity not stored, as a
    # tournament made here): only its copy still has the file's identity.
    Tournament.objects.filter(pk=original.pk).update(name="Renamed", fingerprint="")

    second_copy = import_archive(document, slug="second-copy", now=timezone.now())

    assert first_copy.copy_of == second_copy.copy_of == original


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs advisory locks")
def test_two_imports_of_one_file_at_once_make_one_original_and_one_copy(document):
    """The first import holds its identity's lock until it commits: the second waits for
    it, then finds it (without the lock it would not see the uncommitted first)."""
    written, commit = threading.Event(), threading.Event()
    done: dict[str, Tournament] = {}

    def first() -> None:
        try:
            with transaction.atomic():
                done["first"] = import_archive(document, slug="first", now=timezone.now())
                written.set()
                commit.wait(timeout=30)
        finally:
            connection.close()

    def second() -> None:
        try:
            done["second"] = import_archive(document, slug="second", now=timezone.now())
        finally:
            connection.close()

    a = threading.Thread(target=first)
    a.start()
    assert written.wait(timeout=30)
    b = threading.Thread(target=second)
    b.start()
    b.join(timeout=1)  # with the lock it waits for the first; without, it is done now
    commit.set()
    a.join(timeout=30)
    b.join(timeout=30)

    assert not done["first"].is_copy
    assert Tournament.objects.get(slug="second").copy_of_id == done["first"].pk


def test_a_name_stored_in_another_unicode_form_is_the_same_tournament():
    """Typed here decomposed ("A" + ring), written composed by another program: one name."""
    here = Tournament.objects.create(
        name=unicodedata.normalize("NFD", "Lancre Åpen"), slug="lancre"
    )
    document = json.loads(dumps(build_document(here, now=timezone.now())))
    document["tournament"]["name"] = unicodedata.normalize("NFC", "Lancre Åpen")

    imported = import_archive(document, slug="lancre-again", now=timezone.now())

    assert imported.copy_of == here
