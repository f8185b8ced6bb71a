"""The organiser's settings page: what may change when, and the tiebreak order."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tests.factories import UserFactory, bot_account
from tests.tournaments.web.organiser.pages import HTMX, settings_data, url
from tournaments.models.tournament import Tournament
from tournaments.organising.bots import enter_bot
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round

pytestmark = pytest.mark.django_db


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
        record_final_result(
            m, survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now()
        )
    pair_next_round(started, by=None, now=timezone.now())  # round 2, a draft
    response = organiser.post(url(started, "settings/"), settings_data(started, rounds=1))
    assert response.status_code == 400
    assert "Rounds 1 to 2 are already paired" in response.content.decode()
    assert Tournament.objects.get(pk=started.pk).rounds == 3
    assert (
        organiser.post(url(started, "settings/"), settings_data(started, rounds=2)).status_code
        == 302
    )


def test_a_draft_locks_the_format_until_it_is_discarded(organiser, tournament):
    pair_next_round(tournament, by=None, now=timezone.now())
    data = settings_data(tournament, format="round_robin")
    response = organiser.post(url(tournament, "settings/"), data)
    assert "Round 1 is paired as a draft" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).format == "swiss"
    organiser.post(url(tournament, "rounds/1/discard/"), {"confirm": "1"})
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


def test_the_game_changes_in_the_settings_until_a_round_is_paired(organiser, tournament):
    response = organiser.post(
        url(tournament, "settings/"), settings_data(tournament, game="cavalli")
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).game == "cavalli"
    pair_next_round(
        tournament, by=None, now=timezone.now()
    )  # a draft is enough: its battles would be Cavalli
    page = organiser.get(url(tournament, "settings/")).content.decode()
    assert "disabled" in re.search(r'<select[^>]*name="game"[^>]*>', page).group(0)
    response = organiser.post(url(tournament, "settings/"), settings_data(tournament, game="thud"))
    body = response.content.decode()
    assert response.status_code == 400
    assert "This setting can no longer change." in body
    assert "Round 1 is already paired for this game" in body
    assert Tournament.objects.get(pk=tournament.pk).game == "cavalli"


def test_the_time_to_join_an_online_battle_is_a_setting_in_seconds(organiser, tournament):
    page = organiser.get(url(tournament, "settings/")).content.decode()
    assert "Time to join an online battle (seconds)" in page
    assert 'name="join_window_s"' in page and 'value="60"' in page
    response = organiser.post(
        url(tournament, "settings/"), settings_data(tournament, join_window_s=90)
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).join_window_s == 90
    response = organiser.post(
        url(tournament, "settings/"), settings_data(tournament, join_window_s=5)
    )
    assert response.status_code == 400
    assert "greater than or equal to 10" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).join_window_s == 90


def test_rated_changes_until_round_1_is_paired_then_is_locked(organiser, tournament):
    assert tournament.rated  # on by default
    data = settings_data(tournament)
    del data["rated"]  # unticked
    assert organiser.post(url(tournament, "settings/"), data).status_code == 302
    tournament.refresh_from_db()
    assert not tournament.rated
    pair_next_round(tournament, by=None, now=timezone.now())
    page = organiser.get(url(tournament, "settings/")).content.decode()
    assert "disabled" in re.search(r'<input[^>]*name="rated"[^>]*>', page).group(0)
    response = organiser.post(url(tournament, "settings/"), settings_data(tournament, rated="on"))
    body = response.content.decode()
    assert response.status_code == 400
    assert "This setting can no longer change." in body
    assert "the players were paired knowing whether the tournament counts" in body
    tournament.refresh_from_db()
    assert not tournament.rated


def test_bots_cannot_be_disallowed_while_one_plays_until_it_is_withdrawn(organiser, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(allow_bots=True)
    bot_account(username="koom_bot")
    entry = enter_bot(Tournament.objects.get(pk=tournament.pk), username="koom_bot")
    response = organiser.post(url(tournament, "settings/"), settings_data(tournament))
    assert response.status_code == 400
    said = "Bot accounts play in this tournament (koom_bot): withdraw them first"
    # On the field: its error is tied to the checkbox (aria-describedby), as every field's.
    assert re.search(r'id="id_allow_bots_error">.*' + re.escape(said), response.content.decode())
    assert Tournament.objects.get(pk=tournament.pk).allow_bots
    # Withdrawn, the bot no longer plays here: bots can be disallowed.
    organiser.post(url(tournament, f"players/{entry.pk}/withdraw/"), {"confirm": "1"})
    response = organiser.post(url(tournament, "settings/"), settings_data(tournament))
    assert response.status_code == 302
    assert not Tournament.objects.get(pk=tournament.pk).allow_bots


def test_bots_are_allowed_in_the_settings(organiser, tournament):
    data = settings_data(tournament, allow_bots="on")
    assert organiser.post(url(tournament, "settings/"), data).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).allow_bots
