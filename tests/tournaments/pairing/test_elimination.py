"""The knockout stage as pure functions (tournaments.pairing.elimination): no database."""

from __future__ import annotations

import doctest

import pytest

from tournaments.pairing import elimination
from tournaments.pairing.elimination import (
    KNOCKOUT,
    PLAYOFF,
    RULE_HIGHER_SEED,
    RULE_PLAYOFF,
    Game,
    KnockoutError,
    StageRound,
    build_bracket,
    first_round,
    next_round,
)

# Eight players: id = 10 * seed, so a seed is easy to read off an id.
RANKED = [10, 20, 30, 40, 50, 60, 70, 80]
SEEDS = {p: p // 10 for p in RANKED}


def ko(number, *games, stage=KNOCKOUT):
    return StageRound(number, stage, tuple(Game(number, a, b, d) for a, b, d in games))


def test_first_round_pairs_one_v_eight_four_v_five_two_v_seven_three_v_six():
    seeds, pairings = first_round(RANKED)
    assert seeds == SEEDS
    assert [(p.a, p.b) for p in pairings] == [(10, 80), (40, 50), (20, 70), (30, 60)]
    assert all(p.flags == ("bracket",) for p in pairings)


QUARTERS = ko(5, (10, 80, 3), (40, 50, -2), (20, 70, 9), (30, 60, -1))


def test_winners_advance_in_bracket_order():
    bracket = build_bracket([QUARTERS], SEEDS, RULE_PLAYOFF)
    assert [t.winner for t in bracket.columns[0]] == [10, 50, 20, 60]
    stage, pairings = next_round(bracket, SEEDS)
    assert stage == KNOCKOUT
    assert [(p.a, p.b) for p in pairings] == [(10, 50), (20, 60)]


def test_a_missing_result_holds_the_next_round():
    bracket = build_bracket([ko(5, (10, 20, None))], SEEDS, RULE_PLAYOFF)
    assert bracket.pending and bracket.champion is None
    with pytest.raises(KnockoutError) as exc:
        next_round(bracket, SEEDS)
    assert exc.value.reason == "results_missing"


def test_a_drawn_match_needs_a_playoff_with_the_higher_seed_on_dwarfs_by_default():
    bracket = build_bracket([ko(6, (10, 50, 4), (60, 20, 0))], SEEDS, RULE_PLAYOFF)
    (tie,) = bracket.playoffs
    assert tie.winner is None and tie.needs_playoff
    stage, pairings = next_round(bracket, SEEDS)
    assert stage == PLAYOFF
    assert [(p.a, p.b, p.flags) for p in pairings] == [(20, 60, ("playoff",))]


def test_the_higher_seed_may_choose_second_side_first_in_the_playoff():
    bracket = build_bracket([ko(6, (10, 50, 4), (60, 20, 0))], SEEDS, RULE_PLAYOFF)
    _stage, pairings = next_round(bracket, SEEDS, second_side_first={20})
    assert [(p.a, p.b) for p in pairings] == [(60, 20)]


def test_playoffs_repeat_until_one_is_not_drawn_then_the_bracket_goes_on():
    rounds = [ko(6, (10, 50, 4), (20, 60, 0)), ko(7, (20, 60, 0), stage=PLAYOFF)]
    bracket = build_bracket(rounds, SEEDS, RULE_PLAYOFF)
    assert next_round(bracket, SEEDS)[0] == PLAYOFF
    rounds.append(ko(8, (60, 20, 5), stage=PLAYOFF))
    bracket = build_bracket(rounds, SEEDS, RULE_PLAYOFF)
    tie = bracket.columns[0][1]
    assert (tie.winner, tie.decided_by, len(tie.games)) == (60, "playoff", 3)
    stage, pairings = next_round(bracket, SEEDS)
    assert (stage, [(p.a, p.b) for p in pairings]) == (KNOCKOUT, [(10, 60)])


def test_under_the_higher_seed_rule_a_draw_sends_the_better_seed_on_from_either_side():
    bracket = build_bracket([ko(5, (10, 40, 0), (30, 20, 0))], SEEDS, RULE_HIGHER_SEED)
    assert [(t.winner, t.decided_by) for t in bracket.columns[0]] == [
        (10, "higher_seed"),
        (20, "higher_seed"),
    ]
    assert not bracket.playoffs
    assert next_round(bracket, SEEDS)[1][0].b == 20


def test_the_final_decides_the_champion_and_nothing_follows():
    rounds = [ko(5, (10, 40, 1), (20, 30, 1)), ko(6, (10, 20, -7))]
    bracket = build_bracket(rounds, SEEDS, RULE_PLAYOFF)
    assert bracket.champion == 20
    with pytest.raises(KnockoutError) as exc:
        next_round(bracket, SEEDS)
    assert exc.value.reason == "finished"


def test_a_drawn_final_has_no_champion_until_its_playoff():
    rounds = [ko(5, (10, 20, 0))]
    assert build_bracket(rounds, SEEDS, RULE_PLAYOFF).champion is None
    rounds.append(ko(6, (10, 20, -1), stage=PLAYOFF))
    assert build_bracket(rounds, SEEDS, RULE_PLAYOFF).champion == 20


def test_a_bye_slot_advances_its_player_without_a_match():
    seeds, pairings = first_round([10, 20, 30])
    assert [(p.a, p.b) for p in pairings] == [(10, None), (20, 30)]
    rounds = [ko(1, (10, None, None), (20, 30, -3))]
    bracket = build_bracket(rounds, seeds, RULE_PLAYOFF)
    assert [(t.winner, t.decided_by) for t in bracket.columns[0]] == [(10, "bye"), (30, "result")]
    assert [(p.a, p.b) for p in next_round(bracket, seeds)[1]] == [(10, 30)]


def test_nothing_to_pair_before_the_knockout_starts():
    with pytest.raises(KnockoutError):
        next_round(build_bracket([], SEEDS, RULE_PLAYOFF), SEEDS)


def test_the_docstring_examples_hold():
    assert doctest.testmod(elimination).failed == 0
