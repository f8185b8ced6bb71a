"""Check-in and absences (``tournaments.organising.checkin``) and what pairing does with
them (``tournaments.rounds.draw``)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import EntryFactory, tournament_with_players
from tests.tournaments.rounds.played import finish, play
from tournaments.events.signals import attendance_changed
from tournaments.models.entries import RoundAbsence
from tournaments.models.tournament import Entry
from tournaments.organising import checkin
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import publish_round
from tournaments.rounds.reads import load_standings

pytestmark = pytest.mark.django_db
NOW = timezone.now()


def paired(round_) -> set[int]:
    return {x for m in round_.matches.all() for x in (m.player_a_id, m.player_b_id) if x}


def byes(round_) -> set[int]:
    return {m.player_a_id for m in round_.matches.filter(player_b__isnull=True)}


def entries(t) -> list[Entry]:
    return list(t.entries.order_by("seed"))


@pytest.mark.parametrize(("players", "present"), [(8, 6), (8, 5), (7, 4), (6, 3)])
def test_round_one_pairs_only_checked_in_players(players, present):
    t = tournament_with_players(players, check_in_required=True)
    here = entries(t)[:present]
    for e in here:
        checkin.set_checked_in(e, present=True, now=NOW)
    r1 = pair_next_round(t, by=None, now=timezone.now())
    assert paired(r1) == {e.pk for e in here}
    assert len(byes(r1)) == present % 2


def test_without_check_in_required_unchecked_players_are_paired_as_before():
    t = tournament_with_players(4)
    assert len(paired(pair_next_round(t, by=None, now=timezone.now()))) == 4


def test_pairing_with_too_few_checked_in_players_says_so():
    t = tournament_with_players(4, check_in_required=True)
    checkin.set_checked_in(entries(t)[0], present=True, now=NOW)
    with pytest.raises(RoundError, match="checked-in"):
        pair_next_round(t, by=None, now=timezone.now())


def test_a_late_check_in_joins_the_next_round_with_zero_points():
    t = tournament_with_players(5, rounds=3, check_in_required=True)
    *here, late = entries(t)
    for e in here:
        checkin.set_checked_in(e, present=True, now=NOW)
    r1 = play(t)
    assert late.pk not in paired(r1)
    checkin.set_checked_in(late, present=True, now=NOW)
    r2 = pair_next_round(t, by=None, now=timezone.now())
    assert late.pk in paired(r2)
    points = {row.entry_id: row.match_points for row in load_standings(t)}
    assert points[late.pk] == 0
    assert late.pk not in byes(r1)


def test_a_player_not_playing_round_n_is_neither_paired_nor_given_a_bye_then_plays_again():
    t = tournament_with_players(5, rounds=3)
    play(t)
    skipper = entries(t)[0]
    assert checkin.set_not_playing(skipper, 2, absent=True, now=NOW)
    r2 = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=NOW)
    assert skipper.pk not in paired(r2) and skipper.pk not in byes(r2)
    assert len(paired(r2)) == 4 and not byes(r2)  # the four others, no bye
    finish(r2)
    r3 = pair_next_round(t, by=None, now=timezone.now())
    assert skipper.pk in paired(r3)


def test_not_playing_a_round_already_paired_is_refused_and_changes_nothing():
    t = tournament_with_players(4, rounds=3)
    pair_next_round(t, by=None, now=timezone.now())  # a draft counts as paired
    with pytest.raises(checkin.CheckInError, match="already paired"):
        checkin.set_not_playing(entries(t)[0], 1, absent=True, now=NOW)
    assert not RoundAbsence.objects.exists()


def test_marking_twice_applies_once():
    t = tournament_with_players(2)
    e = entries(t)[0]
    assert checkin.set_checked_in(e, present=True, now=NOW)
    assert not checkin.set_checked_in(e, present=True, now=NOW)
    assert checkin.set_not_playing(e, 2, absent=True, now=NOW)
    assert not checkin.set_not_playing(e, 2, absent=True, now=NOW)
    assert RoundAbsence.objects.count() == 1


def test_a_player_checks_in_only_before_round_one_is_paired():
    t = tournament_with_players(3, check_in_required=True)
    first, second, third = entries(t)
    checkin.check_in_self(first, now=NOW)
    checkin.check_in_self(second, now=NOW)
    assert Entry.objects.get(pk=first.pk).checked_in_at == NOW
    pair_next_round(t, by=None, now=timezone.now())
    with pytest.raises(checkin.CheckInError, match="Round 1 is already paired"):
        checkin.check_in_self(third, now=NOW)
    assert not Entry.objects.get(pk=third.pk).checked_in


def test_self_check_in_is_refused_when_the_tournament_does_not_need_it():
    e = EntryFactory()
    with pytest.raises(checkin.CheckInError):
        checkin.check_in_self(e, now=NOW)


def test_a_change_is_announced_after_commit_only_when_something_changed(
    django_capture_on_commit_callbacks,
):
    t = tournament_with_players(1)
    heard: list[int] = []

    def listen(sender, *, tournament_id, **kwargs):
        heard.append(tournament_id)

    attendance_changed.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            checkin.set_checked_in(entries(t)[0], present=True, now=NOW)
            checkin.set_checked_in(entries(t)[0], present=True, now=NOW)
    finally:
        attendance_changed.disconnect(listen)
    assert heard == [t.pk]


def test_names_are_matched_all_or_none():
    t = tournament_with_players(3)
    a, b, _c = entries(t)
    with pytest.raises(checkin.UnknownNames) as caught:
        checkin.apply_by_names(
            t, [a.player.name, "Nobody", "Ghost"], absent=False, round_number=None, now=NOW
        )
    assert caught.value.names == ("Nobody", "Ghost")
    assert not Entry.objects.filter(tournament=t, checked_in=True).exists()
    done = checkin.apply_by_names(
        t, [a.player.name.upper(), b.player.name], absent=False, round_number=None, now=NOW
    )
    assert {e.pk for e in done} == {a.pk, b.pk}


@pytest.mark.parametrize("number", [0, 4])
def test_not_playing_a_round_that_does_not_exist_is_refused(number):
    t = tournament_with_players(2, rounds=3)
    with pytest.raises(checkin.CheckInError, match="no round"):
        checkin.set_not_playing(entries(t)[0], number, absent=True, now=NOW)
    assert not RoundAbsence.objects.exists()
