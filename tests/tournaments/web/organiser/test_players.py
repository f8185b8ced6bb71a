"""The organiser's players: entering them by hand or by CSV, check-in, withdrawal,
forbidden pairs."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import EntryFactory, UserFactory, bot_account
from tests.tournaments.web.organiser.pages import HTMX, url
from tournaments.models.entries import ForbiddenPair
from tournaments.models.people import Player
from tournaments.models.tournament import Tournament
from tournaments.organising.bots import enter_bot

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize(("typed", "code"), [("Norway", "NO"), ("Norge", "NO"), ("ita", "IT")])
def test_add_player_takes_a_country_by_name_or_code_and_stores_the_code(
    organiser, tournament, typed, code
):
    response = organiser.post(url(tournament, "players/add/"), {"name": "Nobby", "country": typed})
    assert response.status_code == 302
    assert Player.objects.get(name="Nobby").country == code


def test_add_player_refuses_a_country_it_cannot_read_and_says_what_it_takes(organiser, tournament):
    data = {"name": "Nobby", "country": "Ankh-Morpork"}
    response = organiser.post(url(tournament, "players/add/"), data, follow=True)
    assert "Ankh-Morpork is not a country we know: give its name or its ISO code" in (
        response.content.decode()
    )
    assert not Player.objects.filter(name="Nobby").exists()


def test_add_player_via_htmx_returns_the_players_fragment(organiser, tournament):
    response = organiser.post(url(tournament, "players/add/"), {"name": "Nobby"}, **HTMX)
    body = response.content.decode()
    assert "<html" not in body and body.strip().startswith('<div id="players-table"')
    assert "Nobby" in body


def test_csv_upload(organiser, tournament):
    csv = b"name,club,country,rating\nVimes,Watch,AM,1500\nAngua,Watch,DE,\n"
    file = SimpleUploadedFile("players.csv", csv, content_type="text/csv")
    organiser.post(url(tournament, "players/upload/"), {"file": file})
    assert tournament.entries.count() == 6


def test_csv_upload_keeps_the_rating_in_the_file_for_a_player_entered_before(organiser, tournament):
    owner = tournament.owner
    kept = EntryFactory(tournament__owner=owner, player__name="Vimes", player__rating=1500)
    rated = EntryFactory(tournament__owner=owner, player__name="Agnes", player__rating=1500)
    csv = b"name,club,country,rating\nVimes,,,\nAgnes,,,1600\n"
    file = SimpleUploadedFile("players.csv", csv, content_type="text/csv")
    organiser.post(url(tournament, "players/upload/"), {"file": file})
    assert tournament.entries.get(player__name="Agnes").player_id == rated.player_id
    assert Player.objects.get(pk=rated.player_id).rating == 1600
    assert Player.objects.get(pk=kept.player_id).rating == 1500


def test_csv_upload_bad_file_names_the_line_and_changes_nothing(organiser, tournament):
    file = SimpleUploadedFile("players.csv", b"name,club,country,rating\nVimes,W,AM,x\n")
    response = organiser.post(url(tournament, "players/upload/"), {"file": file}, follow=True)
    assert "Line 2: rating must be a whole number" in response.content.decode()
    assert tournament.entries.count() == 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "Nobby", "rating": "1" + "0" * 30}, "A rating is a whole number from 0 to 4000."),
        ({"name": "Nobby", "rating": "-1"}, "A rating is a whole number from 0 to 4000."),
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
    [
        (4, 0, "The tournament has 3 rounds"),
        (3, 1001, "Match points on entry are a whole number from 0 to 1000."),
    ],
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


@pytest.mark.parametrize(("before", "shown"), [(1500, "1500"), (None, "–")])
def test_add_player_entered_before_keeps_the_rating_typed_and_says_so(
    organiser, tournament, before, shown
):
    """Issue 41: "Agnes Nitt, Lancre, rating 1600", entered before by this organiser."""
    own = EntryFactory(
        tournament__owner=tournament.owner,
        player__name="Agnes Nitt",
        player__club="Lancre",
        player__rating=before,
    )
    data = {"name": "Agnes Nitt", "club": "Lancre", "rating": 1600}
    body = organiser.post(url(tournament, "players/add/"), data, **HTMX).content.decode()
    entry = tournament.entries.get(player__name="Agnes Nitt")
    assert entry.player_id == own.player_id and entry.player.rating == 1600
    assert "Agnes Nitt entered with seed 5." in body
    assert f"the rating is now 1600 (it was {shown}), there too" in body


def test_add_player_entered_before_without_a_rating_typed_keeps_the_stored_one(
    organiser, tournament
):
    own = EntryFactory(
        tournament__owner=tournament.owner, player__name="Agnes Nitt", player__rating=1500
    )
    data = {"name": "Agnes Nitt", "club": own.player.club}
    body = organiser.post(url(tournament, "players/add/"), data, **HTMX).content.decode()
    assert tournament.entries.get(player__name="Agnes Nitt").player.rating == 1500
    assert "the rating is now" not in body


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
    organiser.post(url(tournament, f"players/{entry.pk}/withdraw/"), {"confirm": "1"})
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


def test_check_in_posting_the_state_applies_once(organiser, tournament):
    entry = tournament.entries.first()
    for _tap in range(2):
        organiser.post(url(tournament, f"players/{entry.pk}/check-in/"), {"present": "1"}, **HTMX)
    entry.refresh_from_db()
    assert entry.checked_in
    page = organiser.get(url(tournament))
    assert b'name="present" value="0"' in page.content


# ---------------------------------------------------------------- bot accounts


@pytest.fixture
def bots_allowed(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(allow_bots=True)
    tournament.refresh_from_db()
    bot_account(username="koom_bot")
    return tournament


def test_the_bot_form_shows_only_where_bots_are_allowed(organiser, tournament):
    assert 'id="bot-entry"' not in organiser.get(url(tournament)).content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(allow_bots=True)
    page = organiser.get(url(tournament)).content.decode()
    assert 'id="bot-entry"' in page and '<label for="id_bot_username"' in page


def test_the_organiser_enters_a_bot_with_and_without_htmx(organiser, bots_allowed):
    t = bots_allowed
    plain = organiser.post(url(t, "players/add-bot/"), {"username": "koom_bot"}, follow=True)
    assert "koom_bot entered with seed 5." in plain.content.decode()
    bot_account(username="second_bot")
    fragment = organiser.post(url(t, "players/add-bot/"), {"username": "second_bot"}, **HTMX)
    body = fragment.content.decode()
    assert body.strip().startswith('<div id="players-table"') and "second_bot" in body
    bots = t.entries.filter(seed__gt=4).order_by("seed")
    assert list(bots.values_list("player__user__username", flat=True)) == ["koom_bot", "second_bot"]


@pytest.mark.parametrize(
    ("username", "said"),
    [
        ("", "Type the bot account&#x27;s username."),
        ("nobody", "No user named nobody."),
        ("person", "person is not a bot account"),
    ],
)
def test_a_refused_bot_is_said_and_nothing_is_entered(organiser, bots_allowed, username, said):
    UserFactory(username="person")
    response = organiser.post(url(bots_allowed, "players/add-bot/"), {"username": username}, **HTMX)
    assert said in response.content.decode()
    assert bots_allowed.entries.count() == 4


def test_no_bot_is_entered_where_bots_are_not_allowed(organiser, tournament):
    bot_account(username="koom_bot")
    response = organiser.post(url(tournament, "players/add-bot/"), {"username": "koom_bot"}, **HTMX)
    assert "does not allow bot accounts" in response.content.decode()
    assert tournament.entries.count() == 4


def test_only_an_organiser_enters_a_bot(client, bots_allowed):
    client.force_login(UserFactory())
    response = client.post(url(bots_allowed, "players/add-bot/"), {"username": "koom_bot"})
    assert response.status_code == 403
    missing = client.post("/manage/t/no-such-event/players/add-bot/", {"username": "koom_bot"})
    assert missing.status_code == 404
    assert bots_allowed.entries.count() == 4


def test_a_withdrawn_bot_is_not_reinstated_once_bots_are_no_longer_allowed(organiser, bots_allowed):
    t = bots_allowed
    entry = enter_bot(t, username="koom_bot")
    organiser.post(url(t, f"players/{entry.pk}/withdraw/"), {"confirm": "1"})
    Tournament.objects.filter(pk=t.pk).update(allow_bots=False)
    response = organiser.post(url(t, f"players/{entry.pk}/withdraw/"), **HTMX)
    assert "no longer allows bot accounts" in response.content.decode()
    entry.refresh_from_db()
    assert entry.withdrawn_from_round == 1
