"""Who is paired in a round (``tournaments.pairing.attendance``): pure, no database."""

from __future__ import annotations

from tournaments.pairing.attendance import Attendance, players_of_round, plays_in


def test_with_check_in_required_only_checked_in_entries_play():
    entries = [Attendance(1, True), Attendance(2, False), Attendance(3, True)]
    assert players_of_round(entries, 1, check_in_required=True) == [1, 3]


def test_without_check_in_required_everyone_plays_as_before():
    entries = [Attendance(1, True), Attendance(2, False)]
    assert players_of_round(entries, 1, check_in_required=False) == [1, 2]


def test_an_absent_entry_plays_the_round_after_it_checks_in():
    absent = Attendance(7, False)
    assert not plays_in(absent, 2, check_in_required=True)
    assert plays_in(Attendance(7, True), 2, check_in_required=True)


def test_not_playing_round_n_skips_only_that_round():
    a = Attendance(1, True, skipped_rounds=frozenset({3}))
    assert [plays_in(a, n, check_in_required=True) for n in (2, 3, 4)] == [True, False, True]


def test_late_and_withdrawn_entries_keep_their_rounds():
    late = Attendance(1, True, late_from_round=3)
    gone = Attendance(2, True, withdrawn_from_round=2)
    assert [plays_in(late, n, check_in_required=False) for n in (2, 3)] == [False, True]
    assert [plays_in(gone, n, check_in_required=False) for n in (1, 2)] == [True, False]
