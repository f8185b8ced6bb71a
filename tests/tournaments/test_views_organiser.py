from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import PASSWORD, EntryFactory, UserFactory, tournament_with_players
from tournaments.models import Entry, ForbiddenPair, Player, Round, Tournament
from tournaments.results import record_final_result
from tournaments.rounds import pair_next_round, publish_round

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def tournament():
    return tournament_with_players(4, rounds=3)


@pytest.fixture
def organiser(client, tournament):
    client.force_login(tournament.owner)
    return client


def url(t: Tournament, rest: str = "") -> str:
    return f"/manage/t/{t.slug}/{rest}"


# ---------------------------------------------------------------- access


@pytest.mark.parametrize(
    ("method", "rest"),
    [
        ("get", ""),
        ("post", "players/add/"),
        ("post", "rounds/generate/"),
        ("post", "close/"),
        ("post", "referees/"),
    ],
)
def test_anonymous_users_are_sent_to_login(client, tournament, method, rest):
    response = getattr(client, method)(url(tournament, rest))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    ("method", "rest"),
    [("get", ""), ("post", "players/add/"), ("post", "rounds/generate/"), ("post", "close/")],
)
def test_other_users_get_403_and_nothing_changes(client, tournament, method, rest):
    client.force_login(UserFactory())
    response = getattr(client, method)(url(tournament, rest), {"name": "Intruder"})
    assert response.status_code == 403
    assert not tournament.round_set.exists() and tournament.entries.count() == 4


def test_referees_are_not_organisers(client, tournament):
    referee = UserFactory()
    tournament.referees.add(referee)
    client.force_login(referee)
    assert client.get(url(tournament)).status_code == 403


def test_new_tournament_needs_staff(client):
    client.force_login(UserFactory())
    assert client.get("/manage/t/new/").status_code == 403
    assert client.get("/manage/t/new/").status_code == 403


def test_staff_creates_a_tournament_they_own(client):
    staff = UserFactory(is_staff=True)
    assert client.login(username=staff.username, password=PASSWORD)
    data = {"name": "Lancre Open", "slug": "lancre", "format": "swiss", "rounds": 4}
    data |= {"variant": "classic", "capture_policy": "subset"}
    data |= {"points_win": 2, "points_draw": 1, "points_loss": 0, "pairing_seed": 7}
    response = client.post("/manage/t/new/", data)
    assert response.status_code == 302 and response["Location"] == "/manage/t/lancre/"
    assert Tournament.objects.get(slug="lancre").owner == staff
    assert client.get("/manage/t/lancre/").status_code == 200


def test_new_tournament_bad_input_shows_errors_and_creates_nothing(client):
    client.force_login(UserFactory(is_staff=True))
    response = client.post("/manage/t/new/", {"name": "X", "slug": "bad slug!", "rounds": 0})
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert not Tournament.objects.exists()


# ---------------------------------------------------------------- players


def test_dashboard_lists_players(organiser, tournament):
    body = organiser.get(url(tournament)).content.decode()
    assert all(e.player.name in body for e in tournament.entries.select_related("player"))
    assert 'id="players-table"' in body


def test_add_player_and_late_entry(organiser, tournament):
    data = {"name": "Nobby", "club": "Watch", "late_from_round": 2, "initial_points": 1}
    response = organiser.post(url(tournament, "players/add/"), data)
    assert response.status_code == 302
    entry = tournament.entries.get(player__name="Nobby")
    assert (entry.seed, entry.late_from_round, entry.initial_points) == (5, 2, 1)


@pytest.mark.parametrize(
    "data",
    [{"name": ""}, {"name": "Nobby", "rating": "high"}, {"name": "Nobby", "initial_points": 2}],
)
def test_add_player_bad_input_changes_nothing(organiser, tournament, data):
    response = organiser.post(url(tournament, "players/add/"), data, follow=True)
    assert response.status_code == 200
    assert "error" in response.content.decode()
    assert tournament.entries.count() == 4 and not Player.objects.filter(name="Nobby").exists()


def test_add_player_via_htmx_returns_the_players_fragment(organiser, tournament):
    response = organiser.post(url(tournament, "players/add/"), {"name": "Nobby"}, **HTMX)
    body = response.content.decode()
    assert "<html" not in body and body.strip().startswith('<div id="players-table"')
    assert "Nobby" in body


def test_csv_upload(organiser, tournament):
    csv = b"name,club,country,rating\nVimes,Watch,AM,1500\nAngua,Watch,UB,\n"
    file = SimpleUploadedFile("players.csv", csv, content_type="text/csv")
    organiser.post(url(tournament, "players/upload/"), {"file": file})
    assert tournament.entries.count() == 6


def test_csv_upload_bad_file_names_the_line_and_changes_nothing(organiser, tournament):
    file = SimpleUploadedFile("players.csv", b"name,club,country,rating\nVimes,W,AM,x\n")
    response = organiser.post(url(tournament, "players/upload/"), {"file": file}, follow=True)
    assert "Line 2: rating must be a whole number" in response.content.decode()
    assert tournament.entries.count() == 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "Nobby", "rating": "1" + "0" * 30}, "less than or equal to 4000"),
        ({"name": "Nobby", "rating": "-1"}, "greater than or equal to 0"),
        ({"name": "No\x07bby"}, "name contains a control character (U+0007)"),
        ({"name": "Nobby", "club": "Wa\ttch"}, "club contains a control character"),
    ],
)
def test_add_player_out_of_range_shows_the_error_and_changes_nothing(
    organiser, tournament, data, message
):
    response = organiser.post(url(tournament, "players/add/"), data, **HTMX)
    assert response.status_code == 200 and message in response.content.decode()
    assert tournament.entries.count() == 4 and Player.objects.count() == 4


@pytest.mark.parametrize(
    ("late", "points", "message"),
    [(4, 0, "The tournament has 3 rounds"), (3, 1001, "less than or equal to 1000")],
)
def test_add_player_late_entry_joins_by_the_last_round_with_1000_points_at_most(
    organiser, tournament, late, points, message
):
    data = {"name": "Nobby", "late_from_round": late, "initial_points": points}
    refused = organiser.post(url(tournament, "players/add/"), data, **HTMX)
    assert message in refused.content.decode()
    assert not tournament.entries.filter(player__name="Nobby").exists()
    data = {"name": "Nobby", "late_from_round": 3, "initial_points": 1000}
    organiser.post(url(tournament, "players/add/"), data)
    assert tournament.entries.get(player__name="Nobby").initial_points == 1000


def test_add_player_reuses_only_the_organisers_own_players(organiser, tournament):
    owner = tournament.owner
    own = EntryFactory(tournament__owner=owner, player__name="Vimes", player__club="Watch")
    theirs = EntryFactory(player__name="Angua", player__club="Watch")
    add = url(tournament, "players/add/")
    reused = organiser.post(add, {"name": "Vimes", "club": "Watch"}, **HTMX).content.decode()
    assert tournament.entries.get(player__name="Vimes").player_id == own.player_id
    assert "another organiser" not in reused
    new = organiser.post(add, {"name": "Angua", "club": "Watch"}, **HTMX).content.decode()
    assert tournament.entries.get(player__name="Angua").player_id != theirs.player_id
    assert "already exists in another organiser&#x27;s tournament" in new
    assert "a new player was created" in new


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"name,club,country,rating\n" + b"x" * 2_000_001, "too large: at most 2,000,000"),
        (
            b'name,club,country,rating\nVimes,W,AM,1\n"Lord Vetinari,Palace,GB,2000\n',
            "Line 3: a quote opened here is never closed",
        ),
        (b"name,club,country,rating\nVimes,W,AM," + b"9" * 30 + b"\n", "between 0 and 4000"),
        (b"name,club,country,rating\nVi\x00mes,W,AM,\n", "control character (U+0000)"),
    ],
)
def test_csv_upload_refused_shows_the_error_and_changes_nothing(
    organiser, tournament, content, message
):
    file = SimpleUploadedFile("players.csv", content, content_type="text/csv")
    response = organiser.post(url(tournament, "players/upload/"), {"file": file}, **HTMX)
    assert response.status_code == 200 and message in response.content.decode()
    assert tournament.entries.count() == 4 and Player.objects.count() == 4


def test_check_in_htmx_and_plain(organiser, tournament):
    entry = tournament.entries.first()
    fragment = organiser.post(url(tournament, f"players/{entry.pk}/check-in/"), **HTMX)
    assert fragment.content.decode().strip().startswith('<div id="players-table"')
    entry.refresh_from_db()
    assert entry.checked_in
    plain = organiser.post(url(tournament, f"players/{entry.pk}/check-in/"))
    assert plain.status_code == 302
    entry.refresh_from_db()
    assert not entry.checked_in


def test_withdraw_and_reinstate(organiser, tournament):
    entry = tournament.entries.first()
    organiser.post(url(tournament, f"players/{entry.pk}/withdraw/"))
    entry.refresh_from_db()
    assert entry.withdrawn_from_round == 1
    organiser.post(url(tournament, f"players/{entry.pk}/withdraw/"))
    entry.refresh_from_db()
    assert entry.withdrawn_from_round is None


def test_cannot_touch_an_entry_of_another_tournament(organiser, tournament):
    other = EntryFactory()
    response = organiser.post(url(tournament, f"players/{other.pk}/withdraw/"))
    assert response.status_code == 404


def test_forbid_pair(organiser, tournament):
    a, b = tournament.entries.all()[:2]
    organiser.post(url(tournament, "forbidden/"), {"first": a.pk, "second": b.pk})
    assert ForbiddenPair.objects.filter(tournament=tournament).count() == 1
    response = organiser.post(url(tournament, "forbidden/"), {"first": a.pk, "second": a.pk})
    assert response.status_code == 302
    assert ForbiddenPair.objects.count() == 1


def test_appoint_and_remove_referee(organiser, tournament):
    referee = UserFactory(username="ridcully")
    organiser.post(url(tournament, "referees/"), {"username": "ridcully"})
    assert list(tournament.referees.all()) == [referee]
    response = organiser.post(url(tournament, "referees/"), {"username": "ghost"}, follow=True)
    assert "No user named ghost" in response.content.decode()
    organiser.post(url(tournament, f"referees/{referee.pk}/remove/"))
    assert not tournament.referees.exists()


# ---------------------------------------------------------------- rounds


def test_generate_edit_publish_unpublish(organiser, tournament):
    response = organiser.post(url(tournament, "rounds/generate/"))
    assert response["Location"] == url(tournament, "rounds/1/")
    round_ = tournament.round_set.get()
    assert round_.status == Round.Status.DRAFT
    assert "Swap" in organiser.get(url(tournament, "rounds/1/")).content.decode()
    organiser.post(url(tournament, "rounds/1/publish/"))
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    organiser.post(url(tournament, "rounds/1/unpublish/"))
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT
    organiser.post(url(tournament, "rounds/1/discard/"))
    assert not tournament.round_set.exists()


def test_generate_refused_while_unfinished_shows_the_reason(organiser, tournament):
    publish_round(pair_next_round(tournament, by=None))
    response = organiser.post(url(tournament, "rounds/generate/"), follow=True)
    assert "unconfirmed results" in response.content.decode()
    assert tournament.round_set.count() == 1


def test_swap_via_htmx_returns_the_fragment_with_warnings(organiser, tournament):
    r1 = publish_round(pair_next_round(tournament, by=None))
    for m in r1.matches.all():
        record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import")
    r2 = pair_next_round(tournament, by=None)
    m1 = r1.matches.first()
    a = Entry.objects.get(pk=m1.player_a_id)
    m2 = r2.matches.get(player_a=a) if r2.matches.filter(player_a=a).exists() else None
    m2 = m2 or r2.matches.get(player_b=a)
    opponent = m2.player_b if m2.player_a_id == a.pk else m2.player_a
    data = {"first": opponent.pk, "second": m1.player_b_id}
    response = organiser.post(url(tournament, "rounds/2/swap/"), data, **HTMX)
    body = response.content.decode()
    assert body.strip().startswith('<div id="round-matches"') and "already played" in body


def test_swap_bad_input_changes_nothing(organiser, tournament):
    pair_next_round(tournament, by=None)
    before = list(Round.objects.get().matches.values_list("player_a", "player_b"))
    e = tournament.entries.first()
    response = organiser.post(url(tournament, "rounds/1/swap/"), {"first": e.pk, "second": e.pk})
    assert response.status_code == 302
    assert list(Round.objects.get().matches.values_list("player_a", "player_b")) == before


def test_set_bye_plain_post_redirects(organiser, tournament):
    pair_next_round(tournament, by=None)
    e = tournament.entries.first()
    response = organiser.post(url(tournament, "rounds/1/bye/"), {"entry": e.pk})
    assert response.status_code == 302
    assert Round.objects.get().matches.get(player_b__isnull=True, player_a=e)


def test_printable_pairings_and_slips(organiser, tournament):
    pair_next_round(tournament, by=None)
    assert (
        "window.print"
        in organiser.get(url(tournament, "rounds/1/print/pairings/")).content.decode()
    )
    slips = organiser.get(url(tournament, "rounds/1/print/slips/")).content.decode()
    assert slips.count('class="slip"') == 2


def test_close_tournament(organiser, tournament):
    r = publish_round(pair_next_round(tournament, by=None))
    organiser.post(url(tournament, "close/"))
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.FINISHED
    for m in r.matches.all():
        record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import")
    organiser.post(url(tournament, "close/"))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


@pytest.mark.parametrize("model", ["player", "tournament", "round", "match", "forbiddenpair"])
def test_admin_changelists_render(client, tournament, model):
    publish_round(pair_next_round(tournament, by=None))
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get(f"/admin/tournaments/{model}/").status_code == 200
