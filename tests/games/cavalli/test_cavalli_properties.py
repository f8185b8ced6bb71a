"""Property tests: the engine against the naive implementation in cavalli_naive.py, on
positions reached by seeded random play (some of it biased towards doubles)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.cavalli import SQUARES, Move, Position, Side, format_move, parse_move
from games.cavalli.core.notation import parse_move_text
from games.cavalli.core.perft import perft, perft_slow
from tests.games.cavalli.cavalli_naive import (
    naive_apply,
    naive_moves,
    naive_perft,
    random_playout,
    state_of,
)

playouts = st.builds(
    random_playout,
    st.integers(0, 10**6),
    st.integers(0, 2**32 - 1),
    st.integers(0, 60),
    st.sampled_from([0.0, 0.5, 1.0]),
)
PROPERTY_SETTINGS = settings(max_examples=60, deadline=None)


@PROPERTY_SETTINGS
@given(playouts)
def test_engine_moves_are_the_naive_moves(pos):
    moves = pos.legal_moves()
    assert len(moves) == len(set(moves))
    assert moves == sorted(moves, key=Move.sort_key)
    assert {format_move(m) for m in moves} == naive_moves(pos)


@PROPERTY_SETTINGS
@given(playouts)
def test_engine_apply_agrees_with_naive_apply(pos):
    for move in pos.legal_moves():
        assert state_of(pos.apply(move)) == naive_apply(pos, format_move(move))


@PROPERTY_SETTINGS
@given(playouts, st.data())
def test_why_illegal_is_none_exactly_for_legal_moves(pos, data):
    legal = set(pos.legal_moves())
    doubles = pos.board.double_squares
    for _ in range(30):
        to = data.draw(st.sampled_from(SQUARES))
        choice = data.draw(st.one_of(st.none(), st.sampled_from(doubles), st.sampled_from(SQUARES)))
        move = Move(to, choice)
        assert (pos.why_illegal(move) is None) == (move in legal), format_move(move)


@PROPERTY_SETTINGS
@given(playouts)
def test_notation_round_trips_for_every_legal_move(pos):
    for move in pos.legal_moves():
        text = format_move(move)
        assert parse_move(text, pos) == move
        assert parse_move(text.lower(), pos) == move
        assert parse_move_text(text.replace(" ", "")) == move
        assert parse_move_text(f"  {text.replace('x', ' X ')}  ") == move


@PROPERTY_SETTINGS
@given(playouts)
def test_outcome_exactly_when_no_legal_move_and_the_scores_carry_over(pos):
    outcome = pos.outcome()
    assert (outcome is None) == bool(pos.legal_moves())
    if outcome is not None:
        assert (outcome.white_points, outcome.black_points) == pos.scores


@PROPERTY_SETTINGS
@given(playouts)
def test_serialised_forms_round_trip(pos):
    assert Position.from_compact(pos.to_compact()) == pos
    assert Position.from_dict(pos.to_dict()) == pos


@PROPERTY_SETTINGS
@given(playouts)
def test_knights_never_attack_each_other_in_play(pos):
    if pos.white is not None and pos.black is not None:
        assert pos.black not in pos.attacked_by(Side.WHITE)


@settings(max_examples=25, deadline=None)
@given(playouts)
def test_perft_2_agrees_three_ways(pos):
    assert perft(pos, 2) == perft_slow(pos, 2) == naive_perft(pos, 2)
