"""Podium or leaders: the one decision (tournaments/reports/stage.py)."""

from __future__ import annotations

from tournaments.reports.stage import report_stage


def stage(*, closed=False, knockout=False, planned=4, rounds):
    return report_stage(closed=closed, knockout=knockout, planned=planned, rounds=rounds)


def test_no_podium_after_round_1_of_4():
    s = stage(rounds={1: True})
    assert not s.podium and s.leaders and (s.round, s.of, s.complete) == (1, 4, True)


def test_a_podium_once_the_last_round_is_complete():
    assert stage(rounds=dict.fromkeys(range(1, 5), True)).podium


def test_no_podium_while_the_last_round_awaits_results():
    s = stage(rounds={1: True, 2: True, 3: True, 4: False})
    assert not s.podium and s.leaders and not s.complete and s.round == 4


def test_closing_the_tournament_makes_it_final_whatever_the_rounds():
    assert stage(closed=True, rounds={1: True, 2: True}).podium


def test_a_knockout_stage_waits_for_the_tournament_to_close():
    done = dict.fromkeys(range(1, 5), True)
    assert not stage(knockout=True, rounds=done).podium
    assert stage(knockout=True, closed=True, rounds=done).podium


def test_nothing_before_the_first_round():
    s = stage(rounds={})
    assert not s.podium and not s.leaders


def test_more_rounds_than_planned_count_as_planned():
    s = stage(planned=2, rounds={1: True, 2: True, 3: False})
    assert s.of == 3 and not s.podium
