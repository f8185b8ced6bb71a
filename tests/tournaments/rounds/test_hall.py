"""The hall screen's slides (tournaments/rounds/hall.py) and the round timer's rule
(tournaments/rules/timer.py): pairings by table and by name, slides that fit, and a
fingerprint that changes with what the screen shows."""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_match
from tests.tournaments.rounds.played import finish
from tournaments.models.people import Player
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import Entry
from tournaments.organising.hall import set_announcement, start_round_timer
from tournaments.rounds import hall
from tournaments.rules import timer


def test_the_pure_parts_say_what_their_examples_say():
    for module in (hall, timer):
        assert doctest.testmod(module).failed == 0


def test_the_timer_warns_in_the_last_five_minutes_and_is_up_at_zero():
    t0 = timezone.now()
    assert not timer.status(t0, 45, t0 + timedelta(minutes=39, seconds=59)).warning
    assert timer.status(t0, 45, t0 + timedelta(minutes=40)).warning
    up = timer.status(t0, 45, t0 + timedelta(minutes=45))
    assert (up.remaining_s, up.over, up.warning) == (0, True, False)


def test_by_name_lists_each_player_once_a_to_z_with_table_opponent_and_side(db):
    matches = make_match(tables=2)
    Round.objects.filter(pk=matches[0].round_id).update(status=Round.Status.PUBLISHED)
    lines = hall.by_name(matches)
    names = [line.name for line in lines]
    assert names == sorted(names, key=str.casefold) and len(names) == 4
    first = matches[1]
    a = next(line for line in lines if line.name == first.player_a.player.name)
    b = next(line for line in lines if line.name == first.player_b.player.name)
    assert (a.table, a.opponent, a.first_side) == (2, first.player_b.player.name, True)
    assert (b.table, b.opponent, b.first_side) == (2, first.player_a.player.name, False)


def test_slides_hold_at_most_rows_lines(db):
    matches = make_match(tables=hall.ROWS + 1)
    slides = hall.hall_slides(matches[0].round.tournament, now=timezone.now())
    assert [len(s) for s in slides["by_table"]] == [hall.ROWS, 1]
    assert [len(s) for s in slides["by_name"]] == [hall.ROWS, hall.ROWS, 2]
    assert sum(len(s) for s in slides["standings"]) == 2 * (hall.ROWS + 1)


def test_nothing_to_show_before_a_round_is_published(db):
    match = make_match()[0]
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.DRAFT)
    slides = hall.hall_slides(match.round.tournament, now=timezone.now())
    assert slides["round"] is None and slides["by_table"] == [] and slides["timer"] is None


@pytest.mark.parametrize("change", ["result", "announcement", "timer"])
def test_the_fingerprint_changes_with_what_the_screen_shows(db, change):
    match = make_match()[0]
    t = match.round.tournament
    before = hall.hall_fingerprint(t)
    assert hall.hall_fingerprint(t) == before  # nothing changed: the same
    if change == "result":
        finish(match.round)
    elif change == "announcement":
        set_announcement(t, "Lunch at one.")
    else:
        start_round_timer(t, minutes=45, now=timezone.now())
    assert hall.hall_fingerprint(t) != before


def test_the_fingerprint_follows_the_state_version(db):
    """The slides are cached per state version: a screen told of a change must get them
    anew, whatever bumped it (``tournaments.models.state_version``)."""
    t = make_match()[0].round.tournament
    before = hall.hall_fingerprint(t)
    bump_state_version(t.pk)
    assert hall.hall_fingerprint(t) != before


def test_a_bye_is_listed_by_name_without_an_opponent_and_the_page_shows_it(db, client):
    match = make_match()[0]
    t = match.round.tournament
    alone = Entry.objects.create(tournament=t, player=Player.objects.create(name="Zed Alone"))
    Match.objects.create(round=match.round, table=2, player_a=alone, player_b=None)
    lines = hall.by_name(
        list(match.round.matches.select_related("player_a__player", "player_b__player"))
    )
    zed = next(line for line in lines if line.name == "Zed Alone")
    assert (zed.table, zed.opponent, zed.bye) == (2, "", True) and len(lines) == 3
    html = client.get(reverse("hall", args=[t.slug])).content.decode()
    assert "Zed Alone" in html
