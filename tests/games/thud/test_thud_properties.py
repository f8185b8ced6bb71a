"""Property tests on positions reached by seeded random playouts (all three policies)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.thud import CapturePolicy, Side, format_move, parse_move
from games.thud.core.board import mask_of
from games.thud.core.movegen import count_dwarf_moves, count_troll_moves
from games.thud.core.perft import perft
from tests.games.thud.naive import naive_moves, random_playout

policies = st.sampled_from(list(CapturePolicy))
playouts = st.builds(
    lambda seed, plies, policy, bias: (random_playout(seed, plies, policy, bias), policy),
    st.integers(0, 2**32 - 1),
    st.integers(0, 140),
    policies,
    st.sampled_from([0.0, 0.5, 0.9]),
)
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None)


@PROPERTY_SETTINGS
@given(playouts)
def test_engine_agrees_with_naive_generator(case):
    position, policy = case
    for pos in (position, position.pass_turn()):  # both sides to move on the same board
        moves = pos.legal_moves(policy)
        assert len(moves) == len(set(moves))
        assert set(moves) == naive_moves(pos, policy)


@PROPERTY_SETTINGS
@given(playouts)
def test_bulk_counts_match_generated_moves(case):
    position, policy = case
    d, t = mask_of(position.dwarfs), mask_of(position.trolls)
    dwarf_pos = position if position.side_to_move is Side.DWARF else position.pass_turn()
    troll_pos = dwarf_pos.pass_turn()
    assert count_dwarf_moves(d, t) == len(dwarf_pos.legal_moves(policy))
    assert count_troll_moves(d, t, policy.value) == len(troll_pos.legal_moves(policy))


@PROPERTY_SETTINGS
@given(playouts)
def test_notation_round_trips_for_every_legal_move(case):
    position, policy = case
    for move in position.legal_moves(policy):
        text = format_move(move)
        assert parse_move(text, position, policy) == move
        compact = text.replace(" ", "")
        assert parse_move(compact, position, policy) == move


@PROPERTY_SETTINGS
@given(playouts)
def test_moves_keep_piece_counts_consistent(case):
    position, policy = case
    for move in position.legal_moves(policy):
        after = position.apply(move)
        assert after.side_to_move is position.side_to_move.other
        if move.side is Side.DWARF:
            assert after.dwarf_count == position.dwarf_count
            assert after.troll_count == position.troll_count - len(move.captures)
        else:
            assert after.troll_count == position.troll_count
            assert after.dwarf_count == position.dwarf_count - len(move.captures)


@PROPERTY_SETTINGS
@given(playouts)
def test_targets_and_legality_agree_with_legal_moves(case):
    position, policy = case
    moves = position.legal_moves(policy)
    pieces = position.dwarfs if position.side_to_move is Side.DWARF else position.trolls
    for square in pieces:
        expected = sorted({m.to_sq for m in moves if m.from_sq == square})
        assert position.targets_from(square, policy) == expected
    assert all(position.is_legal(m, policy) for m in moves)
    if position.dwarfs and position.trolls:
        assert (position.outcome(policy) is None) == bool(moves)


@pytest.mark.parametrize("policy", list(CapturePolicy))
@pytest.mark.parametrize("seed", range(6))
def test_engine_agrees_with_naive_generator_on_fixed_mid_games(seed, policy):
    # Fixed long playouts, so mid-game shapes are covered whatever hypothesis draws.
    position = random_playout(seed, 31 + 10 * seed, policy, capture_bias=0.5)
    for pos in (position, position.pass_turn()):
        assert set(pos.legal_moves(policy)) == naive_moves(pos, policy)


@PROPERTY_SETTINGS
@given(playouts)
def test_perft_two_matches_children_of_public_moves(case):
    # The fast perft's interior ply (raw generation + bit apply) against Position.apply.
    position, policy = case
    expected = sum(perft(position.apply(m), 1, policy) for m in position.legal_moves(policy))
    assert perft(position, 2, policy) == expected
    assert perft(position, 1, policy) == len(position.legal_moves(policy))
