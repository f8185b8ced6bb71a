"""Tiny's notation and records: every move and position round trips; movetext is read back."""

from __future__ import annotations

import pytest

from games.rules.records import RecordError, build_record, movetext, split_records
from tests.games.tiny.core.notation import (
    InvalidMoveError,
    format_move,
    format_square,
    parse_move_text,
    parse_square,
)
from tests.games.tiny.core.position import SQUARES, Position
from tests.games.tiny.game import TinyGame
from tests.games.tiny_tests import brute

GAME = TinyGame()


def test_every_square_round_trips():
    names = [format_square(sq) for sq in SQUARES]
    assert names == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]
    assert [parse_square(n) for n in names] == list(SQUARES)
    assert [parse_square(n.lower()) for n in names] == list(SQUARES)


def test_every_move_of_every_reachable_position_round_trips():
    seen = 0
    for pos in brute.reachable():
        position = Position.from_compact(brute.compact(pos))
        assert position.to_compact() == brute.compact(pos)
        for move in position.legal_moves():
            text = format_move(move)
            assert parse_move_text(text) == move
            assert parse_move_text(text.lower()) == move
            assert parse_move_text(f" {text[:2]} {text[2]} {text[3:]} ") == move
            seen += 1
    assert seen == 372  # moves summed over the reachable positions


@pytest.mark.parametrize("text", ["A1", "A1--A2", "A1 A2", "A1-A2-A3", "D1-D2", "A1+A2", "a１-a2"])
def test_text_that_is_no_move_is_refused(text):
    with pytest.raises(InvalidMoveError):
        parse_move_text(text)


def battle(choose) -> tuple[list[str | None], Position]:
    state, moves = GAME.initial_state(), []
    while GAME.outcome(state) is None:
        move = choose(GAME.legal_moves(state))
        moves.append(move)
        state = GAME.apply(state, move)[0]
    return moves, state


def test_a_record_round_trips_through_the_shared_record_format():
    moves, final = battle(lambda legal: legal[-1])
    moves.insert(2, None)  # a forfeited turn: a pass
    text = build_record({"Event": "Tiny test", "Gold": "A", "Silver": "B"}, moves)
    [(tags, body)] = split_records(text)
    assert tags["Event"] == "Tiny test"
    assert GAME.parse_movetext(body) == tuple(moves)
    assert GAME.parse_movetext(movetext(moves).lower()) == tuple(moves)


def test_movetext_may_leave_out_the_numbers_and_end_with_a_star():
    assert GAME.parse_movetext("A1-A2 C3-C2 -- A2xB3 *") == ("A1-A2", "C3-C2", None, "A2xB3")
    assert GAME.parse_movetext("") == ()


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1. A1-A2 B3-B2 3. A2-A3", 2),  # numbered 3 at move 2
        ("1. A1-A2 2. B3-B2", 1),  # a number in the middle of a move
        ("1. A1-A2 B3-B2 2. Q1-Q2", 2),
        ("1. A1-A2 * B3-B2", 1),
    ],
)
def test_bad_movetext_names_its_move(text, number):
    with pytest.raises(RecordError) as caught:
        GAME.parse_movetext(text)
    assert caught.value.move_number == number
