from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import (
    PASSWORD,
    EntryFactory,
    TournamentFactory,
    UserFactory,
    tournament_with_players,
)
from tournaments.models import Entry, ForbiddenPair, Player, Round, Tournament
from tournaments.permissions import ORGANISERS_GROUP
from tournaments.results.workflow import record_final_result
from tournaments.rounds.adapter import pair_next_round, publish_round

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


NEW_TOURNAMENT = {
    "name": "Lancre Open",
    "format": "swiss",
    "rounds": 4,
    "variant": "classic",
    "capture_policy": "subset",
    "points_win": 2,
    "points_draw": 1,
    "points_loss": 0,
    "pairing_seed": 7,
}


def organiser_role(user):
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return user


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


def test_new_tournament_needs_the_organiser_role_not_staff(client):
    client.force_login(UserFactory(is_staff=True))
    assert client.get("/manage/t/new/").status_code == 403
    assert client.post("/manage/t/new/", NEW_TOURNAMENT).status_code == 403
    assert not Tournament.objects.exists()


def test_an_organiser_creates_a_tournament_they_own(client):
    user = organiser_role(UserFactory())
    assert client.login(username=user.username, password=PASSWORD)
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "lancre"})
    assert response.status_code == 302 and response["Location"] == "/manage/t/lancre/"
    assert Tournament.objects.get(slug="lancre").owner == user
    assert client.get("/manage/t/lancre/").status_code == 200


def test_new_tournament_bad_input_shows_errors_and_creates_nothing(client):
    client.force_login(organiser_role(UserFactory()))
    response = client.post("/manage/t/new/", {"name": "X", "slug": "bad slug!", "rounds": 0})
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_slug_is_made_from_the_name_when_left_empty(client):
    client.force_login(organiser_role(UserFactory()))
    page = client.get("/manage/t/new/").content.decode()
    assert "Leave it empty to make it from the name" in page
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"name": "Lancre Open: Koom Valley!"})
    assert response["Location"] == "/manage/t/lancre-open-koom-valley/"


def test_a_slug_made_from_a_taken_name_gets_a_suffix(client):
    TournamentFactory(slug="lancre-open")
    TournamentFactory(slug="lancre-open-2")
    client.force_login(organiser_role(UserFactory()))
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"name": "Lancre Open"})
    assert response["Location"] == "/manage/t/lancre-open-3/"
    assert Tournament.objects.get(slug="lancre-open-3").name == "Lancre Open"


def test_a_typed_slug_that_is_taken_is_refused_with_a_clear_error(client):
    TournamentFactory(slug="lancre")
    client.force_login(organiser_role(UserFactory()))
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "lancre"})
    assert response.status_code == 400
    assert "The address lancre is taken by another tournament" in response.content.decode()
    assert Tournament.objects.count() == 1


def test_a_name_without_letters_asks_for_a_slug(client):
    client.force_login(organiser_role(UserFactory()))
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"name": "!!!"})
    assert response.status_code == 400
    assert "No web address can be made from this name" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_pairing_seed_is_under_advanced_with_an_explanation(client):
    client.force_login(organiser_role(UserFactory()))
    page = client.get("/manage/t/new/").content.decode()
    advanced = page[page.index("<details") : page.index("</details>")]
    assert 'name="pairing_seed"' in advanced and page.count('name="pairing_seed"') == 1
    assert "makes the random choices of pairing repeatable" in advanced


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


# ---------------------------------------------------------------- settings


def settings_data(t: Tournament, **changes) -> dict:
    """Every field of the settings form as the page would post it, with ``changes``."""
    data = {
        "name": t.name,
        "venue": t.venue,
        "start_date": t.start_date.isoformat() if t.start_date else "",
        "end_date": t.end_date.isoformat() if t.end_date else "",
        "format": t.format,
        "rounds": t.rounds,
        "top_cut": t.top_cut,
        "knockout_draw_rule": t.knockout_draw_rule,
        "variant": t.variant,
        "capture_policy": t.capture_policy,
        "points_win": t.points_win,
        "points_draw": t.points_draw,
        "points_loss": t.points_loss,
        "think_s": t.think_ms / 1000,
        "move_s": t.move_ms / 1000,
        "grace_ms": t.grace_ms,
        "commit_rule": t.commit_rule,
        "move_unit": t.move_unit,
        "max_consecutive_forfeits": t.max_consecutive_forfeits,
        "pairing_seed": t.pairing_seed,
    }
    return data | changes


def test_the_dashboard_links_to_the_settings_page(organiser, tournament):
    assert (
        f'href="{url(tournament, "settings/")}"' in organiser.get(url(tournament)).content.decode()
    )
    page = organiser.get(url(tournament, "settings/")).content.decode()
    assert 'value="15"' in page  # thinking time shown in seconds, not 15000 ms
    assert 'name="think_s"' in page and "disabled" not in page


def test_edit_settings_before_play(organiser, tournament):
    data = settings_data(
        tournament,
        name="Lancre Winter Open",
        venue="Lancre Castle",
        start_date="2026-12-01",
        end_date="2026-12-02",
        format="round_robin",
        rounds=3,
        variant="timed30",
        capture_policy="all",
        points_win=3,
        points_draw=1,
        points_loss=0,
        think_s="12.5",
        move_s="4",
        grace_ms=500,
        commit_rule="none",
        move_unit="ply",
        max_consecutive_forfeits=5,
        pairing_seed=42,
    )
    response = organiser.post(url(tournament, "settings/"), data)
    assert response.status_code == 302 and response["Location"] == url(tournament, "settings/")
    t = Tournament.objects.get(pk=tournament.pk)
    assert (t.name, t.venue, str(t.start_date), str(t.end_date)) == (
        "Lancre Winter Open",
        "Lancre Castle",
        "2026-12-01",
        "2026-12-02",
    )
    assert (t.format, t.rounds, t.variant, t.capture_policy) == ("round_robin", 3, "timed30", "all")
    assert (t.points_win, t.points_draw, t.points_loss) == (3, 1, 0)
    assert (t.think_ms, t.move_ms, t.grace_ms) == (12_500, 4_000, 500)
    assert (t.commit_rule, t.move_unit, t.max_consecutive_forfeits) == ("none", "ply", 5)
    assert t.pairing_seed == 42 and t.slug == tournament.slug


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"points_win": 1, "points_draw": 2}, "A win must be worth at least a draw"),
        ({"start_date": "2026-12-02", "end_date": "2026-12-01"}, "end date is before"),
        ({"think_s": "0.5"}, "greater than or equal to 1"),
        ({"max_consecutive_forfeits": 0}, "greater than or equal to 1"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_bad_settings_show_the_error_and_change_nothing(organiser, tournament, changes, message):
    data = settings_data(tournament, venue="Elsewhere", **changes)
    response = organiser.post(url(tournament, "settings/"), data)
    assert response.status_code == 400 and message in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).venue == tournament.venue


@pytest.fixture
def started(tournament):
    """Round 1 published: play has started."""
    publish_round(pair_next_round(tournament, by=None))
    return tournament


LOCKED_AFTER_PUBLISHING = [
    ("format", "round_robin", "re-pair a tournament in progress"),
    ("variant", "timed24", "battles are played under this variant"),
    ("capture_policy", "all", "battles are played under this capture policy"),
    ("think_s", "10", "clocks run with these settings"),
    ("move_s", "9", "clocks run with these settings"),
    ("grace_ms", "1000", "clocks run with these settings"),
    ("commit_rule", "none", "clocks run with these settings"),
    ("move_unit", "ply", "clocks run with these settings"),
    ("max_consecutive_forfeits", "5", "clocks run with these settings"),
]


def test_once_play_starts_the_page_says_what_is_locked_and_why(organiser, started):
    page = organiser.get(url(started, "settings/")).content.decode()
    assert "Play has started" in page and "the standings are recomputed" in page
    for field, _value, reason in LOCKED_AFTER_PUBLISHING:
        tag = re.search(rf'<(?:input|select)[^>]*name="{field}"[^>]*>', page).group(0)
        assert "disabled" in tag, field
        assert reason in page
    for field in ("name", "rounds", "points_win"):
        tag = re.search(rf'<input[^>]*name="{field}"[^>]*>', page).group(0)
        assert "disabled" not in tag, field


@pytest.mark.parametrize(("field", "value", "reason"), LOCKED_AFTER_PUBLISHING)
def test_a_locked_field_posted_anyway_is_refused_with_its_reason(
    organiser, started, field, value, reason
):
    before = Tournament.objects.filter(pk=started.pk).values().get()
    data = settings_data(started, **{"name": "Renamed", field: value})
    response = organiser.post(url(started, "settings/"), data)
    body = response.content.decode()
    assert response.status_code == 400
    assert "This setting can no longer change." in body and reason in body
    assert Tournament.objects.filter(pk=started.pk).values().get() == before


def test_after_play_starts_names_points_and_rounds_still_change(organiser, started):
    # The browser does not post disabled fields: leave the locked ones out, as it would.
    data = settings_data(started, name="Renamed", points_win=3, rounds=5)
    for field, _value, _reason in LOCKED_AFTER_PUBLISHING:
        del data[field]
    response = organiser.post(url(started, "settings/"), data)
    assert response.status_code == 302
    t = Tournament.objects.get(pk=started.pk)
    assert (t.name, t.points_win, t.rounds) == ("Renamed", 3, 5)
    assert (t.format, t.variant, t.think_ms) == (started.format, started.variant, started.think_ms)


def test_the_number_of_rounds_cannot_drop_below_the_paired_rounds(organiser, started):
    for m in started.round_set.get().matches.all():
        record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import")
    pair_next_round(started, by=None)  # round 2, a draft
    response = organiser.post(url(started, "settings/"), settings_data(started, rounds=1))
    assert response.status_code == 400
    assert "Rounds 1 to 2 are already paired" in response.content.decode()
    assert Tournament.objects.get(pk=started.pk).rounds == 3
    assert (
        organiser.post(url(started, "settings/"), settings_data(started, rounds=2)).status_code
        == 302
    )


def test_a_draft_locks_the_format_until_it_is_discarded(organiser, tournament):
    pair_next_round(tournament, by=None)
    data = settings_data(tournament, format="round_robin")
    response = organiser.post(url(tournament, "settings/"), data)
    assert "Round 1 is paired as a draft" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).format == "swiss"
    organiser.post(url(tournament, "rounds/1/discard/"))
    assert organiser.post(url(tournament, "settings/"), data).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).format == "round_robin"


def test_settings_are_for_organisers_only(client, tournament):
    client.force_login(UserFactory())
    assert client.get(url(tournament, "settings/")).status_code == 403
    response = client.post(url(tournament, "settings/"), settings_data(tournament, name="Mine"))
    assert response.status_code == 403
    assert (
        client.post(url(tournament, "settings/tiebreaks/"), {"order": ["seed"]}).status_code == 403
    )
    assert Tournament.objects.get(pk=tournament.pk).name == tournament.name
    assert Tournament.objects.get(pk=tournament.pk).tiebreaks == []


# ---------------------------------------------------------------- tiebreak order


def button_order(page: str, label: str) -> list[str]:
    """The order posted by the button labelled ``label`` ("Move Buchholz up")."""
    form = re.search(rf'<form[^>]*>(?:(?!</form>).)*aria-label="{label}".*?</form>', page, re.S)
    return re.findall(r'name="order" value="([a-z_]+)"', form.group(0))


def test_tiebreak_buttons_move_a_rule_up_and_down(organiser, started):
    page = organiser.get(url(started, "settings/")).content.decode()
    up = button_order(page, "Move Buchholz up")
    assert up[:3] == ["match_points", "buchholz", "differential"]
    organiser.post(url(started, "settings/tiebreaks/"), {"order": up})
    assert Tournament.objects.get(pk=started.pk).tiebreak_order == up
    page = organiser.get(url(started, "settings/")).content.decode()
    assert 'aria-label="Move Match points up"' not in page  # the first rule has no up
    down = button_order(page, "Move Match points down")
    assert down[:2] == ["buchholz", "match_points"]
    response = organiser.post(url(started, "settings/tiebreaks/"), {"order": down}, follow=True)
    assert "Tiebreak order saved" in response.content.decode()
    assert Tournament.objects.get(pk=started.pk).tiebreak_order == down


def test_tiebreak_order_via_htmx_returns_the_fragment(organiser, tournament):
    order = ["buchholz", "match_points"]
    response = organiser.post(url(tournament, "settings/tiebreaks/"), {"order": order}, **HTMX)
    body = response.content.decode()
    assert "<html" not in body and body.strip().startswith('<div id="tiebreak-order"')
    assert body.index("Buchholz") < body.index("Match points")
    assert "Back to the default order" in body


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (["match_points", "buchholz", "match_points"], "only once: match_points repeated"),
        (["match_points", "coin_toss"], "Unknown tiebreak: coin_toss"),
        ([], "Choose at least one tiebreak"),
    ],
)
def test_bad_tiebreak_orders_are_refused_and_change_nothing(organiser, tournament, order, message):
    response = organiser.post(url(tournament, "settings/tiebreaks/"), {"order": order}, follow=True)
    assert message in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).tiebreaks == []


# ---------------------------------------------------------------- co-organisers


def test_a_co_organiser_runs_the_tournament_until_removed(client, tournament):
    helper, other = UserFactory(username="magrat"), UserFactory(username="nanny")
    client.force_login(tournament.owner)
    client.post(url(tournament, "co-organisers/"), {"username": "magrat"})
    client.post(url(tournament, "co-organisers/"), {"username": "nanny"})
    assert list(tournament.co_organisers.order_by("username")) == [helper, other]
    client.force_login(helper)
    assert client.get(url(tournament)).status_code == 200
    assert client.post(url(tournament, "rounds/generate/")).status_code == 302
    assert tournament.round_set.count() == 1
    client.force_login(tournament.owner)
    client.post(url(tournament, f"co-organisers/{helper.pk}/remove/"))
    assert list(tournament.co_organisers.all()) == [other]  # the other one stays
    client.force_login(helper)
    assert client.get(url(tournament)).status_code == 403
    assert client.post(url(tournament, "rounds/1/publish/")).status_code == 403
    assert tournament.round_set.get().status == Round.Status.DRAFT


def test_co_organisers_cannot_appoint_or_remove_co_organisers(client, tournament):
    helper, other = UserFactory(), UserFactory(username="nanny")
    tournament.co_organisers.add(helper)
    client.force_login(helper)
    assert "Appoint co-organiser" not in client.get(url(tournament)).content.decode()
    response = client.post(url(tournament, "co-organisers/"), {"username": "nanny"})
    assert response.status_code == 403 and not tournament.co_organisers.filter(pk=other.pk).exists()
    response = client.post(url(tournament, f"co-organisers/{helper.pk}/remove/"))
    assert response.status_code == 403 and tournament.co_organisers.filter(pk=helper.pk).exists()


def test_appointing_the_owner_or_a_stranger_as_co_organiser_is_refused(organiser, tournament):
    owner = tournament.owner.username
    response = organiser.post(url(tournament, "co-organisers/"), {"username": owner}, follow=True)
    assert "The owner organises this tournament already" in response.content.decode()
    response = organiser.post(url(tournament, "co-organisers/"), {"username": "ghost"}, follow=True)
    assert "No user named ghost" in response.content.decode()
    assert not tournament.co_organisers.exists()


# ---------------------------------------------------------------- rough edges


def test_pair_is_not_offered_while_a_draft_exists(organiser, tournament):
    assert "Pair round 1" in organiser.get(url(tournament)).content.decode()
    pair_next_round(tournament, by=None)
    page = organiser.get(url(tournament)).content.decode()
    assert "Pair round" not in page
    assert f'<a href="{url(tournament, "rounds/1/")}">Publish or discard round 1 first</a>' in page


def test_round_robin_with_too_few_rounds_is_warned_on_the_dashboard(organiser, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(format="round_robin", rounds=2)
    page = organiser.get(url(tournament)).content.decode()
    assert "A round robin of 4 players needs 3 rounds" in page and "this tournament has 2" in page
    Tournament.objects.filter(pk=tournament.pk).update(rounds=3)
    assert "round robin of 4 players" not in organiser.get(url(tournament)).content.decode()


def test_link_buttons_are_not_white_on_the_page(organiser, tournament):
    tournament.referees.add(UserFactory())
    page = organiser.get(url(tournament)).content.decode()
    assert '<button type="submit" class="link">remove</button>' in page
    css = (settings.BASE_DIR / "static/css/site.css").read_text()
    rule = re.search(r"^button\.link \{(.*?)\}", css, re.M | re.S).group(1)
    colour = re.search(r"(?<![-\w])color:\s*([^;]+);", rule)
    assert colour and colour.group(1).strip() not in ("#fff", "#ffffff", "white")


# ---------------------------------------------------------------- the game of a tournament


def test_an_organiser_creates_a_cavalli_tournament(client):
    client.force_login(organiser_role(UserFactory()))
    page = client.get("/manage/t/new/").content.decode()
    assert 'name="game"' in page and "Battaglia di Cavalli" in page
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "cav", "game": "cavalli"})
    assert response.status_code == 302
    assert Tournament.objects.get(slug="cav").game == "cavalli"


def test_a_new_tournament_without_a_game_plays_thud_and_an_unknown_game_is_refused(client):
    client.force_login(organiser_role(UserFactory()))
    client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "plain"})
    assert Tournament.objects.get(slug="plain").game == "thud"
    response = client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "x", "game": "chess"})
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    assert not Tournament.objects.filter(slug="x").exists()


def test_the_game_changes_in_the_settings_until_a_round_is_paired(organiser, tournament):
    response = organiser.post(
        url(tournament, "settings/"), settings_data(tournament, game="cavalli")
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).game == "cavalli"
    pair_next_round(tournament, by=None)  # a draft is enough: its battles would be Cavalli
    page = organiser.get(url(tournament, "settings/")).content.decode()
    assert "disabled" in re.search(r'<select[^>]*name="game"[^>]*>', page).group(0)
    response = organiser.post(url(tournament, "settings/"), settings_data(tournament, game="thud"))
    body = response.content.decode()
    assert response.status_code == 400
    assert "This setting can no longer change." in body
    assert "Round 1 is already paired for this game" in body
    assert Tournament.objects.get(pk=tournament.pk).game == "cavalli"


def test_cavalli_slips_round_table_and_printed_pairings_speak_of_white_and_black(client):
    t = tournament_with_players(4, rounds=3, game="cavalli")
    client.force_login(t.owner)
    pair_next_round(t, by=None)
    slips = client.get(url(t, "rounds/1/print/slips/")).content.decode()
    assert slips.count('class="slip"') == 2
    for words in ("White", "White points (0–4950)", "Black", "Black points (0–4950)"):
        assert f"<th>{words}</th>" in slips
    assert "<th>Game 1</th>" in slips and "<th>Game 2</th>" in slips
    round_page = client.get(url(t, "rounds/1/")).content.decode()
    assert "<th>Player A (white in game 1)</th>" in round_page
    printed = client.get(url(t, "rounds/1/print/pairings/")).content.decode()
    assert "<th>Player A (white in game 1)</th><th>Player B (black in game 1)</th>" in printed
    for page in (slips, round_page, printed):
        assert not re.search(r"dwarf|troll|surviv", page, re.IGNORECASE)


def test_thud_slips_round_table_and_printed_pairings_keep_their_words(organiser, tournament):
    pair_next_round(tournament, by=None)
    slips = organiser.get(url(tournament, "rounds/1/print/slips/")).content.decode()
    assert "<th>Surviving dwarfs (0–32)</th>" in slips and "<th>Battle 1</th>" in slips
    assert "<th>Surviving trolls (0–8)</th>" in slips
    round_page = organiser.get(url(tournament, "rounds/1/")).content.decode()
    assert "<th>Player A (dwarfs first)</th>" in round_page
    printed = organiser.get(url(tournament, "rounds/1/print/pairings/")).content.decode()
    assert "<th>Player A (dwarfs in battle 1)</th><th>Player B (trolls in battle 1)</th>" in printed
