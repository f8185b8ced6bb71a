"""Square and move notation: canonical output, lenient input, precise errors."""

from __future__ import annotations

import pytest

from games.cavalli import (
    SQUARES,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    format_move,
    format_square,
    parse_move,
    parse_square,
)
from games.cavalli.core.notation import parse_move_text


def test_every_square_round_trips_through_its_name():
    names = [format_square(sq) for sq in SQUARES]
    assert len(set(names)) == 100
    assert names[:3] == ["A1", "B1", "C1"]
    assert names[-1] == "J10"
    assert [parse_square(name) for name in names] == list(SQUARES)


@pytest.mark.parametrize("text", ["I1", "i10", " c 3 ", "j10"])
def test_square_names_are_read_in_either_case_with_spaces(text):
    assert format_square(parse_square(text)) == text.replace(" ", "").upper()


@pytest.mark.parametrize("text", ["", "A", "1", "K1", "A0", "A11", "1A", "AA1", "A1x"])
def test_a_bad_square_name_is_an_error(text):
    with pytest.raises(ValueError, match="not a square"):
        parse_square(text)


@pytest.mark.parametrize("value", [-1, 100, "A1", None])
def test_formatting_something_that_is_not_a_square_is_an_error(value):
    with pytest.raises(ValueError):
        format_square(value)


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move(22), "C3"),
        (Move(99), "J10"),
        (Move(44, choice=11), "E5 xB2"),
        (Move(0, choice=90), "A1 xA10"),
    ],
)
def test_canonical_notation(move, text):
    assert format_move(move) == text
    assert str(move) == text
    assert parse_move_text(text) == move


@pytest.mark.parametrize(
    "text", ["e5 xb2", "E5xB2", "e5XB2", "  E5  x  B2  ", "E 5 x B 2", "\tE5 xB2\n"]
)
def test_move_notation_is_read_leniently(text):
    assert parse_move_text(text) == Move(44, choice=11)


@pytest.mark.parametrize(
    "text",
    ["", "x", "E5 B2", "E5 x", "xB2", "E5 xB2 xC3", "K5", "E11", "E5-E6", "E5 yB2", "E5,B2"],
)
def test_malformed_move_text_is_an_invalid_move_error(text):
    with pytest.raises(InvalidMoveError, match="not Cavalli move notation"):
        parse_move_text(text)


def test_parse_move_rejects_well_formed_but_illegal_moves_with_the_reason():
    pos = Position.initial(Board.from_seed(1))
    with pytest.raises(IllegalMoveError, match="^E5 is not legal: white places its knight on"):
        parse_move("e5", pos)
    with pytest.raises(InvalidMoveError):
        parse_move("e5-e6", pos)


def test_illegal_and_invalid_moves_are_value_errors():
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(InvalidMoveError, ValueError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)
