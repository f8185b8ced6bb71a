"""The tournament's state version (``tournaments.models.state_version``): every writer of
what the public pages show bumps it once, in its transaction; a write that changes
nothing shown leaves it; a full save never writes an old number back."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import EntryFactory, TournamentFactory, UserFactory, tournament_with_players
from tests.tournaments.web.organiser.pages import settings_data, url
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import Tournament
from tournaments.organising import hall
from tournaments.organising.checkin import set_checked_in
from tournaments.organising.csv_rows import PlayerRow, ResultRow
from tournaments.organising.entries import current_values, edit_entry, reseed_by_rating
from tournaments.organising.imports import enter_player, import_players, import_results
from tournaments.results.corrections import correct_result, decide_result
from tournaments.results.entry import confirm_result, enter_result
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import discard_draft, pair_next_round
from tournaments.rounds.edits import toggle_withdrawal
from tournaments.rounds.play import begin_play, close_tournament, publish_round, unpublish_round

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def version(t: Tournament) -> int:
    return Tournament.objects.values_list("state_version", flat=True).get(pk=t.pk)


class Bumps:
    """``with Bumps(t, 1): write()`` asserts the write bumped ``t`` exactly once."""

    def __init__(self, t: Tournament, n: int = 1) -> None:
        self.t, self.n = t, n

    def __enter__(self) -> Bumps:
        self.before = version(self.t)
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            assert version(self.t) - self.before == self.n


def paired(n: int = 4) -> Round:
    t = tournament_with_players(n, rounds=3)
    return pair_next_round(t, by=None, now=NOW)


def published(n: int = 4) -> Round:
    return publish_round(paired(n), now=NOW)


def a_match(round_: Round) -> Match:
    return round_.matches.filter(player_b__isnull=False).order_by("table").first()


def test_a_new_tournament_starts_at_version_0():
    assert version(TournamentFactory()) == 0


def test_bump_state_version_adds_one():
    t = TournamentFactory()
    with Bumps(t, 2):
        bump_state_version(t.pk)
        bump_state_version(t.pk)


def test_a_full_save_of_an_instance_loaded_before_a_bump_keeps_the_bump():
    t = TournamentFactory()
    stale = Tournament.objects.get(pk=t.pk)
    bump_state_version(t.pk)
    stale.name = "Renamed"
    stale.save()
    fresh = Tournament.objects.get(pk=t.pk)
    assert (fresh.name, fresh.state_version) == ("Renamed", 1)


def test_a_save_naming_the_version_writes_it():
    t = TournamentFactory()
    t.state_version = 7
    t.save(update_fields=["state_version"])
    assert version(t) == 7


# --- rounds --------------------------------------------------------------------------------


def test_pairing_publishing_unpublishing_and_discarding_bump_once_each():
    t = tournament_with_players(4, rounds=3)
    with Bumps(t):
        round_ = pair_next_round(t, by=None, now=NOW)
    with Bumps(t):
        publish_round(round_, now=NOW)
    with Bumps(t):
        unpublish_round(round_)
    with Bumps(t):
        discard_draft(round_, now=NOW)


def test_closing_the_tournament_bumps_once():
    round_ = published(2)
    for m in round_.matches.filter(player_b__isnull=False):
        record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import", now=NOW)
    t = round_.tournament
    t.rounds = 1
    t.save()
    with Bumps(t):
        close_tournament(t, now=NOW)


def test_a_withdrawal_and_its_reinstatement_bump_once_each():
    round_ = published()
    entry = round_.tournament.entries.first()
    with Bumps(round_.tournament):
        toggle_withdrawal(entry)
    with Bumps(round_.tournament):
        toggle_withdrawal(entry)


def test_beginning_play_changes_nothing_shown():
    round_ = published()
    m = a_match(round_)
    with Bumps(round_.tournament, 0):
        begin_play(m, players=(m.player_a_id, m.player_b_id), now=NOW)


# --- results -------------------------------------------------------------------------------


def test_every_result_write_bumps_once():
    round_ = published()
    t = round_.tournament
    m = a_match(round_)
    first, second = UserFactory(), UserFactory()
    with Bumps(t):  # pending: the pairings show "entered"
        v = enter_result(m, survivors=(10, 1, 5, 2), by=first, expected_lock_version=None, now=NOW)
    with Bumps(t):
        confirm_result(m, version_id=v.pk, by=second, expected_lock_version=None, now=NOW)
    with Bumps(t):
        correct_result(
            m, survivors=(9, 1, 5, 2), by=first, reason="typo", expected_lock_version=None, now=NOW
        )
    with Bumps(t):
        decide_result(
            m,
            survivors=(8, 1, 5, 2),
            by=second,
            reason="ruled",
            expected_lock_version=None,
            now=NOW,
        )
    with Bumps(t):
        record_final_result(
            a_match(round_), survivors=(1, 2, 3, 4), by=None, source="import", now=NOW
        )


def test_a_results_import_bumps_once():
    round_ = published(8)
    rows = [
        ResultRow(line=i, round=1, table=m.table, survivors=(10, 1, 5, 2))
        for i, m in enumerate(round_.matches.filter(player_b__isnull=False), start=2)
    ]
    with Bumps(round_.tournament):
        assert import_results(round_.tournament, rows, now=NOW) == 4


def test_a_refused_result_write_leaves_the_version():
    round_ = paired()  # a draft: no results
    with Bumps(round_.tournament, 0), pytest.raises(ValueError):
        record_final_result(
            a_match(round_), survivors=(10, 1, 5, 2), by=None, source="import", now=NOW
        )


# --- entries -------------------------------------------------------------------------------


def test_an_entry_edit_bumps_its_tournament_once_and_the_players_others_after_commit(
    django_capture_on_commit_callbacks,
):
    t = tournament_with_players(2)
    entry = t.entries.select_related("player").first()
    elsewhere = EntryFactory(player=entry.player).tournament
    unrelated = TournamentFactory()
    values = current_values(entry)
    renamed = type(values)("Renamed", values.club, values.country, values.rating, values.seed)
    with (
        Bumps(t),
        Bumps(elsewhere),
        Bumps(unrelated, 0),
        django_capture_on_commit_callbacks(execute=True),
    ):
        edit_entry(entry, values=renamed, by=None, now=NOW)


def test_reseeding_and_entering_players_bump_once_each():
    t = tournament_with_players(3)
    with Bumps(t):
        reseed_by_rating(t, by=None, now=NOW)
    with Bumps(t):
        enter_player(t, name="Late Larry")
    with Bumps(t):
        import_players(
            t, [PlayerRow(line=2, name="Imported Ida", club="", country="", rating=None)]
        )


def test_checking_in_changes_nothing_shown():
    t = tournament_with_players(2, check_in_required=True)
    with Bumps(t, 0):
        set_checked_in(t.entries.first(), present=True, now=NOW)


# --- the hall screen, settings, ratings ----------------------------------------------------


def test_the_announcement_and_the_timer_bump_once_each():
    round_ = published()
    t = round_.tournament
    with Bumps(t):
        hall.set_announcement(t, "Lunch at one")
    with Bumps(t):
        hall.start_round_timer(t, minutes=30, now=NOW)
    with Bumps(t):
        hall.stop_round_timer(t)


def test_the_settings_and_the_tiebreak_order_bump_once_each(client):
    t = tournament_with_players(4, rounds=3)
    client.force_login(t.owner)
    with Bumps(t):
        response = client.post(url(t, "settings/"), settings_data(t, name="Renamed Open"))
        assert response.status_code == 302
    with Bumps(t):
        client.post(url(t, "settings/tiebreaks/"), {"order": ["buchholz", "match_points"]})


def test_new_site_ratings_bump_the_other_tournaments_of_the_players_after_commit(
    django_capture_on_commit_callbacks,
):
    round_ = published(4)
    t = round_.tournament
    for m in round_.matches.filter(player_b__isnull=False):
        record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import", now=NOW)
    elsewhere = EntryFactory(player=t.entries.first().player).tournament
    other_game = EntryFactory(
        player=t.entries.first().player, tournament=TournamentFactory(game="cavalli")
    ).tournament
    with Bumps(elsewhere), Bumps(other_game, 0), django_capture_on_commit_callbacks(execute=True):
        pair_next_round(t, by=None, now=NOW)  # round 1 finishes: its results are rated


def test_a_player_renamed_in_the_django_admin_bumps_their_tournaments(admin_client):
    entry = EntryFactory()
    elsewhere = EntryFactory(player=entry.player).tournament
    change = reverse("admin:tournaments_player_change", args=[entry.player_id])
    data = {"name": "Renamed", "club": "", "country": "", "rating": "", "user": ""}
    with Bumps(entry.tournament), Bumps(elsewhere):
        assert admin_client.post(change, data).status_code == 302


def test_a_round_changed_in_the_django_admin_bumps_its_tournament(admin_client):
    round_ = published()
    change = reverse("admin:tournaments_round_change", args=[round_.pk])
    page = admin_client.get(change).context["adminform"].form
    data = {k: v for k, v in page.initial.items() if v is not None} | {"status": "finished"}
    data["tournament"] = round_.tournament_id
    with Bumps(round_.tournament):
        response = admin_client.post(change, data)
        assert response.status_code == 302, response.context["adminform"].form.errors
