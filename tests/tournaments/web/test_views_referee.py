from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.results.entry import confirm_result, enter_result

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def survivors(d1=20, t1=2, d2=15, t2=3, **extra):
    data = {"battle1_first": d1, "battle1_second": t1, "battle2_first": d2, "battle2_second": t2}
    data.update(extra)
    return data


def players_of(match):
    a, b = UserFactory(), UserFactory()
    match.player_a.player.user = a
    match.player_a.player.save()
    match.player_b.player.user = b
    match.player_b.player.save()
    return a, b


def url(name, match):
    return reverse(name, args=[match.round.tournament.slug, match.pk])


def fresh(match):
    return Match.objects.get(pk=match.pk)


def confirmed(match, values=(1, 1, 1, 1)):
    """A result entered by one person and confirmed by another (lock version 2)."""
    v = enter_result(
        match, survivors=values, by=UserFactory(), expected_lock_version=None, now=timezone.now()
    )
    return confirm_result(
        match, version_id=v.pk, by=UserFactory(), expected_lock_version=None, now=timezone.now()
    )


# --- round view -----------------------------------------------------------------------


def test_round_view_lists_every_table_with_its_status(client, match, referee):
    other = MatchFactory(round=match.round)
    enter_result(
        other, survivors=(1, 1, 1, 1), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee)
    page = client.get(reverse("referee_round", args=[match.round.tournament.slug, 1]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<html" in html and 'hx-trigger="every 5s"' in html
    assert 'data-status="awaiting"' in html and 'data-status="entered"' in html


def test_round_view_filter_answers_the_fragment_to_htmx(client, match, referee):
    other = MatchFactory(round=match.round)
    enter_result(
        other, survivors=(1, 1, 1, 1), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee)
    path = reverse("referee_round", args=[match.round.tournament.slug, 1])
    fragment = client.get(path, {"status": "entered"}, **HX).content.decode()
    assert fragment.lstrip().startswith('<section id="round-matches"')
    assert "<html" not in fragment
    assert f"match-{other.pk}" in fragment and f"match-{match.pk}" not in fragment
    assert "?status=entered" in fragment  # polling keeps the filter


def test_round_view_refuses_referee_of_another_tournament(client, match):
    stranger = UserFactory()
    TournamentFactory().referees.add(stranger)
    client.force_login(stranger)
    path = reverse("referee_round", args=[match.round.tournament.slug, 1])
    assert client.get(path).status_code == 403


def test_round_view_sends_anonymous_users_to_login(client, match):
    path = reverse("referee_round", args=[match.round.tournament.slug, 1])
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_round_view_of_a_missing_round_is_404(client, match, referee):
    client.force_login(referee)
    path = reverse("referee_round", args=[match.round.tournament.slug, 9])
    assert client.get(path).status_code == 404


# --- entering -------------------------------------------------------------------------


def test_match_page_shows_the_form_and_preview_partial(client, match, referee):
    client.force_login(referee)
    page = client.get(url("referee_match", match))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'name="lock_version"' in html and 'id="result-preview"' in html
    assert 'hx-trigger="input changed delay:300ms"' in html


def test_htmx_entry_answers_the_panel_fragment(client, match, referee):
    client.force_login(referee)
    response = client.post(url("referee_result", match), survivors(lock_version=0), **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="result-panel"') and "<html" not in html
    m = fresh(match)
    assert m.result_status == Match.ResultStatus.ENTERED
    version = m.versions.get()
    assert version.entered_by == referee and version.source == ResultVersion.Source.REFEREE
    assert version.survivors.as_tuple() == (20, 2, 15, 3)
    assert "HX-Trigger" not in response  # not confirmed yet: standings unchanged


def test_plain_entry_redirects_to_the_match_page(client, match, referee):
    client.force_login(referee)
    response = client.post(url("referee_result", match), survivors(lock_version=0))
    assert response.status_code == 302 and response["Location"] == url("referee_match", match)
    assert fresh(match).versions.count() == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("battle1_first", "33", "less than or equal to 32"),
        ("battle1_second", "9", "less than or equal to 8"),
        ("battle2_first", "-1", "greater than or equal to 0"),
        ("battle2_second", "x", "whole number"),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_invalid_survivors_are_refused_beside_the_field(
    client, match, referee, field, value, message, htmx
):
    client.force_login(referee)
    data = survivors(lock_version=0)
    data[field] = value
    response = client.post(url("referee_result", match), data, **(HX if htmx else {}))
    assert response.status_code == 422
    html = response.content.decode()
    # Django renders the error list right after the input of the same field.
    field_html = html.split(f'name="{field}"', 1)[1].split('class="field"', 1)[0]
    assert message in field_html
    assert ("<html" in html) is not htmx
    assert fresh(match).versions.count() == 0 and fresh(match).lock_version == 0


@pytest.mark.parametrize("htmx", [True, False])
def test_stale_lock_version_answers_409_with_current_values(client, match, referee, referee2, htmx):
    enter_result(
        match, survivors=(7, 1, 9, 4), by=referee2, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee)
    response = client.post(
        url("referee_result", match), survivors(lock_version=0), **(HX if htmx else {})
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "This match was changed by someone else meanwhile" in html
    assert 'name="battle1_first" value="7"' in html
    assert 'name="lock_version" value="1"' in html
    m = fresh(match)
    assert m.versions.count() == 1 and m.lock_version == 1


def test_preview_shows_points_winners_and_differential(client, match, referee):
    client.force_login(referee)
    response = client.post(url("referee_result_preview", match), survivors(5, 2, 10, 3), **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<output id="result-preview"')
    assert "Differential for" in html and ": -1" in html
    assert f"{match.player_b.player.name} wins" in html


def test_preview_with_invalid_values_shows_no_score(client, match, referee):
    client.force_login(referee)
    response = client.post(url("referee_result_preview", match), survivors(40), **HX)
    assert "Differential" not in response.content.decode()


def test_match_id_of_another_tournament_is_404(client, match, referee):
    foreign = MatchFactory()
    client.force_login(referee)
    wrong = reverse("referee_result", args=[match.round.tournament.slug, foreign.pk])
    assert client.post(wrong, survivors(lock_version=0)).status_code == 404
    wrong_page = reverse("referee_match", args=[match.round.tournament.slug, foreign.pk])
    assert client.get(wrong_page).status_code == 404
    assert foreign.versions.count() == 0


def test_referee_of_another_tournament_is_refused(client, match):
    stranger = UserFactory()
    TournamentFactory().referees.add(stranger)
    client.force_login(stranger)
    assert client.post(url("referee_result", match), survivors(lock_version=0)).status_code == 403
    assert client.get(url("referee_match", match)).status_code == 403
    assert fresh(match).versions.count() == 0


@pytest.mark.parametrize("htmx", [True, False])
def test_public_user_posting_a_result_is_sent_to_login(client, match, htmx):
    response = client.post(
        url("referee_result", match), survivors(lock_version=0), **(HX if htmx else {})
    )
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert fresh(match).versions.count() == 0


def test_logged_in_stranger_posting_a_result_is_refused(client, match):
    client.force_login(UserFactory())
    assert client.post(url("referee_result", match), survivors(lock_version=0)).status_code == 403
    assert fresh(match).versions.count() == 0


def test_csrf_is_enforced_on_result_entry(match, referee):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(referee)
    assert (
        strict.post(url("referee_result", match), survivors(lock_version=0), **HX).status_code
        == 403
    )
    assert fresh(match).versions.count() == 0


# --- confirming -----------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_second_referee_confirms_and_standings_change(client, match, referee, referee2, htmx):
    v = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee2)
    response = client.post(
        url("referee_result_confirm", match),
        {"version_id": v.pk, "lock_version": 1},
        **(HX if htmx else {}),
    )
    assert response.status_code == (200 if htmx else 302)
    if htmx:
        assert response.content.decode().lstrip().startswith('<section id="result-panel"')
        assert "standings-changed" in response["HX-Trigger"]
    m = fresh(match)
    assert m.result_status == Match.ResultStatus.CONFIRMED and m.confirmed_version_id == v.pk
    v.refresh_from_db()
    assert v.confirmed_by == referee2


def test_entering_referee_sees_no_confirm_button_and_cannot_confirm(client, match, referee):
    v = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee)
    assert 'name="confirm"' not in client.get(url("referee_match", match)).content.decode()
    response = client.post(
        url("referee_result_confirm", match), {"version_id": v.pk, "lock_version": 1}
    )
    assert response.status_code == 403
    assert fresh(match).result_status == Match.ResultStatus.ENTERED


def test_stale_confirm_answers_409(client, match, referee, referee2):
    v = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    enter_result(
        match, survivors=(20, 2, 15, 4), by=referee, expected_lock_version=1, now=timezone.now()
    )
    client.force_login(referee2)
    response = client.post(
        url("referee_result_confirm", match), {"version_id": v.pk, "lock_version": 1}, **HX
    )
    # v was superseded by the referee's own newer entry: nothing to confirm any more.
    assert response.status_code in (403, 409)
    assert fresh(match).result_status == Match.ResultStatus.ENTERED


def test_confirm_with_old_lock_version_answers_409(client, match, referee, referee2):
    v = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee2)
    response = client.post(
        url("referee_result_confirm", match), {"version_id": v.pk, "lock_version": 0}, **HX
    )
    assert response.status_code == 409
    assert "changed by someone else" in response.content.decode()
    assert fresh(match).result_status == Match.ResultStatus.ENTERED


def test_double_submitted_confirm_is_harmless(client, match, referee, referee2):
    v = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee2)
    data = {"version_id": v.pk, "lock_version": 1}
    assert client.post(url("referee_result_confirm", match), data, **HX).status_code == 200
    assert client.post(url("referee_result_confirm", match), data, **HX).status_code == 200
    assert fresh(match).versions.count() == 1


def test_double_submitted_entry_creates_one_version(client, match, referee):
    client.force_login(referee)
    data = survivors(lock_version=0)
    assert client.post(url("referee_result", match), data, **HX).status_code == 200
    assert client.post(url("referee_result", match), data, **HX).status_code == 200
    assert fresh(match).versions.count() == 1


def test_disputed_match_shows_both_versions_for_a_referee(client, match, referee):
    a, b = players_of(match)
    enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=a,
        expected_lock_version=0,
        source="player",
        now=timezone.now(),
    )
    enter_result(
        match,
        survivors=(21, 2, 15, 3),
        by=b,
        expected_lock_version=1,
        source="player",
        now=timezone.now(),
    )
    client.force_login(referee)
    html = client.get(url("referee_match", match)).content.decode()
    assert html.count('class="card version version-disputed"') == 2
    assert html.count('name="confirm"') == 2


# --- players --------------------------------------------------------------------------


def test_player_enters_and_opponent_confirms(client, match):
    a, b = players_of(match)
    client.force_login(a)
    assert (
        client.post(url("referee_result", match), survivors(lock_version=0), **HX).status_code
        == 200
    )
    v = fresh(match).versions.get()
    assert v.source == ResultVersion.Source.PLAYER
    client.force_login(b)
    response = client.post(
        url("referee_result_confirm", match), {"version_id": v.pk, "lock_version": 1}, **HX
    )
    assert response.status_code == 200
    assert fresh(match).result_status == Match.ResultStatus.CONFIRMED


def test_player_cannot_confirm_their_own_entry(client, match):
    a, _b = players_of(match)
    v = enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=a,
        expected_lock_version=0,
        source="player",
        now=timezone.now(),
    )
    client.force_login(a)
    response = client.post(
        url("referee_result_confirm", match), {"version_id": v.pk, "lock_version": 1}, **HX
    )
    assert response.status_code == 403
    v.refresh_from_db()
    assert v.status == ResultVersion.Status.PENDING
    assert fresh(match).result_status == Match.ResultStatus.ENTERED


def test_player_cannot_act_on_another_match(client, match):
    a, _b = players_of(match)
    other = MatchFactory(round=match.round)
    client.force_login(a)
    assert client.post(url("referee_result", other), survivors(lock_version=0)).status_code == 403
    assert client.get(url("referee_match", other)).status_code == 403
    assert other.versions.count() == 0


def test_player_cannot_use_the_round_view_or_correct(client, match, referee):
    a, b = players_of(match)
    confirmed(match)
    client.force_login(a)
    assert (
        client.get(reverse("referee_round", args=[match.round.tournament.slug, 1])).status_code
        == 403
    )
    data = survivors(lock_version=2, reason="mine")
    assert client.post(url("referee_result_correct", match), data).status_code == 403
    assert fresh(match).versions.count() == 1


def test_player_cannot_settle_a_dispute(client, match):
    a, b = players_of(match)
    enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=a,
        expected_lock_version=0,
        source="player",
        now=timezone.now(),
    )
    vb = enter_result(
        match,
        survivors=(21, 2, 15, 3),
        by=b,
        expected_lock_version=1,
        source="player",
        now=timezone.now(),
    )
    client.force_login(a)
    response = client.post(
        url("referee_result_confirm", match), {"version_id": vb.pk, "lock_version": 2}
    )
    assert response.status_code == 403
    assert fresh(match).result_status == Match.ResultStatus.DISPUTED


def test_player_cannot_see_a_draft_round_match(client):
    match = MatchFactory(round=RoundFactory(status=Round.Status.DRAFT))
    a, _b = players_of(match)
    client.force_login(a)
    assert client.get(url("referee_match", match)).status_code == 404


def test_player_lists_their_matches(client, match):
    a, _b = players_of(match)
    MatchFactory()  # someone else's
    client.force_login(a)
    html = client.get(reverse("referee_my_matches")).content.decode()
    assert url("referee_match", match) in html and html.count("card-link") == 1


def test_player_cannot_mark_a_result_final(client, match):
    a, _b = players_of(match)
    client.force_login(a)
    client.post(url("referee_result", match), survivors(lock_version=0, final="on"), **HX)
    assert fresh(match).result_status == Match.ResultStatus.ENTERED


# --- organisers and corrections -------------------------------------------------------


def test_organiser_records_a_final_decision_with_a_reason(client, match):
    client.force_login(match.round.tournament.owner)
    page = client.get(url("referee_match", match)).content.decode()
    assert url("referee_result_decide", match) in page
    refused = client.post(url("referee_result_decide", match), survivors(lock_version=0), **HX)
    assert refused.status_code == 422 and fresh(match).versions.count() == 0
    data = survivors(lock_version=0, reason="slip lost; both players agreed")
    response = client.post(url("referee_result_decide", match), data, **HX)
    assert "standings-changed" in response["HX-Trigger"]
    v = fresh(match).confirmed_version
    assert v.source == ResultVersion.Source.ORGANISER and v.status == ResultVersion.Status.CONFIRMED
    assert v.kind == ResultVersion.Kind.DECISION and v.reason.startswith("slip lost")
    assert "Organiser&#x27;s final decision" in response.content.decode()


def test_referee_cannot_record_a_final_decision(client, match, referee):
    client.force_login(referee)
    assert (
        url("referee_result_decide", match)
        not in client.get(url("referee_match", match)).content.decode()
    )
    data = survivors(lock_version=0, reason="I say so")
    assert client.post(url("referee_result_decide", match), data, **HX).status_code == 403
    assert fresh(match).versions.count() == 0


@pytest.mark.parametrize("htmx", [True, False])
def test_referee_correction_waits_for_a_second_referee(client, match, referee, referee2, htmx):
    original = confirmed(match)
    client.force_login(referee)
    assert (
        "Correct the confirmed result" in client.get(url("referee_match", match)).content.decode()
    )
    data = survivors(2, 1, 1, 1, lock_version=2, reason="slip misread")
    response = client.post(url("referee_result_correct", match), data, **(HX if htmx else {}))
    assert response.status_code == (200 if htmx else 302)
    m = fresh(match)
    correction = m.versions.get(number=2)
    assert correction.status == ResultVersion.Status.PENDING and correction.reason == "slip misread"
    assert m.confirmed_version_id == original.pk  # still the standing result
    # The referee who proposed it cannot confirm it; a second referee can.
    page = client.get(url("referee_match", match)).content.decode()
    assert "Confirm version 2" not in page
    client.force_login(referee2)
    page = client.get(url("referee_match", match)).content.decode()
    assert "Confirm version 2" in page and "Reason: slip misread" in page
    client.post(
        url("referee_result_confirm", match), {"version_id": correction.pk, "lock_version": 3}
    )
    m = fresh(match)
    assert m.confirmed_version_id == correction.pk
    assert m.confirmed_version.confirmed_by_id == referee2.pk
    assert m.versions.get(pk=original.pk).status == ResultVersion.Status.SUPERSEDED


def test_correction_without_reason_is_refused_beside_the_field(client, match, referee):
    confirmed(match)
    client.force_login(referee)
    response = client.post(
        url("referee_result_correct", match), survivors(lock_version=2, reason=""), **HX
    )
    assert response.status_code == 422
    assert "This field is required" in response.content.decode()
    assert fresh(match).versions.count() == 1


def test_bye_has_no_result_page(client, referee, match):
    bye = MatchFactory(round=match.round, player_b=None)
    client.force_login(referee)
    assert client.get(url("referee_match", bye)).status_code == 404


def test_unused_player_factory_is_available():
    assert PlayerFactory.build().name.startswith("Player")


# --- issue 9: two people for every confirmed result ------------------------------------


def test_correction_of_an_unconfirmed_match_confirms_nothing(client, match, referee):
    """Finding 1: the correction endpoint used to record a confirmed result alone."""
    client.force_login(referee)
    data = survivors(lock_version=0, reason="quicker this way")
    response = client.post(url("referee_result_correct", match), data, **HX)
    assert response.status_code == 422
    assert "no confirmed result to correct" in response.content.decode()
    m = fresh(match)
    assert m.versions.count() == 0 and m.confirmed_version is None
    assert m.result_status == Match.ResultStatus.AWAITING


def test_losing_confirmer_gets_the_changed_meanwhile_panel_not_a_403(
    client, match, referee, referee2
):
    v = enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=UserFactory(),
        expected_lock_version=0,
        now=timezone.now(),
    )
    confirm_result(match, version_id=v.pk, by=referee2, expected_lock_version=1, now=timezone.now())
    client.force_login(referee)  # saw the page before referee2 confirmed
    response = client.post(
        url("referee_result_confirm", match), {"version_id": v.pk, "lock_version": 1}, **HX
    )
    assert response.status_code == 409
    assert "changed by someone else meanwhile" in response.content.decode()
    assert fresh(match).confirmed_version.confirmed_by_id == referee2.pk


def test_author_of_a_result_still_cannot_confirm_it_after_it_changed(client, match, referee):
    v = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    confirm_result(
        match, version_id=v.pk, by=UserFactory(), expected_lock_version=1, now=timezone.now()
    )
    client.force_login(referee)
    response = client.post(
        url("referee_result_confirm", match), {"version_id": v.pk, "lock_version": 1}
    )
    assert response.status_code == 403


def test_referee_cannot_enter_a_result_in_a_draft_round(client, referee, match):
    """Finding 2: results could be entered in a draft round."""
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.DRAFT)
    client.force_login(referee)
    page = client.get(url("referee_match", match)).content.decode()
    assert "nothing can be entered" in page and url("referee_result", match) not in page
    response = client.post(url("referee_result", match), survivors(lock_version=0), **HX)
    assert response.status_code == 422
    assert "not published yet" in response.content.decode()
    assert fresh(match).versions.count() == 0


# --- a Battaglia di Cavalli tournament: points of both games, on the game's scale ------------


@pytest.fixture
def cavalli_match():
    return MatchFactory(round=RoundFactory(tournament=TournamentFactory(game="cavalli")))


@pytest.fixture
def cavalli_referee(cavalli_match):
    user = UserFactory()
    cavalli_match.round.tournament.referees.add(user)
    return user


def test_cavalli_entry_form_names_games_and_colours_with_the_game_limits(
    client, cavalli_match, cavalli_referee
):
    client.force_login(cavalli_referee)
    html = client.get(url("referee_match", cavalli_match)).content.decode()
    a = cavalli_match.player_a.player.name
    assert f"Game 1 white points ({a})" in html and f"Game 2 black points ({a})" in html
    assert "points (A)" not in html
    assert "surviving dwarfs" not in html
    assert 'max="4950"' in html and 'max="32"' not in html
    assert "(white in game 1)" in html


def test_cavalli_entry_form_speaks_italian_and_norwegian(client, cavalli_match, cavalli_referee):
    client.force_login(cavalli_referee)
    page = url("referee_match", cavalli_match)
    italian = client.get(page, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    norwegian = client.get(page, HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert "Game 1: white points (A)" not in italian
    assert "Game 1: white points (A)" not in norwegian
    assert "4950" in italian and "4950" in norwegian


def test_cavalli_result_is_entered_with_points_above_thud_limits(
    client, cavalli_match, cavalli_referee
):
    client.force_login(cavalli_referee)
    data = survivors(d1=2400, t1=1800, d2=999, t2=3100, lock_version=0)
    response = client.post(url("referee_result", cavalli_match), data)
    assert response.status_code == 302
    version = fresh(cavalli_match).versions.get()
    assert version.game == "cavalli"
    assert version.survivors.as_tuple() == (2400, 1800, 999, 3100)
    assert version.survivors.points_of("a") == (2400, 3100)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("battle1_first", "4951", "less than or equal to 4950"),
        ("battle2_second", "-5", "greater than or equal to 0"),
        ("battle1_second", "12x", "whole number"),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_cavalli_bad_points_are_refused_beside_the_field_and_nothing_changes(
    client, cavalli_match, cavalli_referee, field, value, message, htmx
):
    client.force_login(cavalli_referee)
    data = survivors(d1=2400, t1=1800, d2=999, t2=3100, lock_version=0)
    data[field] = value
    response = client.post(url("referee_result", cavalli_match), data, **(HX if htmx else {}))
    assert response.status_code == 422
    html = response.content.decode()
    field_html = html.split(f'name="{field}"', 1)[1].split('class="field"', 1)[0]
    assert message in field_html
    assert fresh(cavalli_match).versions.count() == 0 and fresh(cavalli_match).lock_version == 0


def test_cavalli_result_over_the_limit_is_refused_by_the_workflow_too(cavalli_match):
    # A caller that skips the form (import, script) meets the same limit in MatchResult.parse.
    with pytest.raises(ValueError, match="Game 1 white points must be between 0 and 4950"):
        enter_result(
            cavalli_match,
            survivors=(5000, 0, 0, 0),
            by=UserFactory(),
            expected_lock_version=None,
            now=timezone.now(),
        )
    assert fresh(cavalli_match).versions.count() == 0


def test_a_thud_form_still_refuses_cavalli_sized_numbers(client, match, referee):
    client.force_login(referee)
    response = client.post(url("referee_result", match), survivors(d1=2400, lock_version=0))
    assert response.status_code == 422 and fresh(match).versions.count() == 0
