from __future__ import annotations

import pytest

from games.thud import (
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    Side,
    format_move,
    parse_move,
)


def sq(text: str) -> tuple[int, int]:
    from games.thud import parse_square

    return parse_square(text)


HURL_POSITION = Position.from_compact("dwarf dC4,dD4,dE4,TH4")
STEP_POSITION = Position.from_compact("troll dE5,dE6,TG7")


def test_format_plain_dwarf_move():
    assert format_move(Move(Side.DWARF, sq("F1"), sq("F5"))) == "d F1-F5"


def test_format_hurl():
    assert format_move(Move(Side.DWARF, sq("E4"), sq("H4"), (sq("H4"),))) == "d E4-H4 xH4"


def test_format_sorts_captures_by_rank_then_file():
    move = Move(Side.TROLL, sq("G7"), sq("F6"), (sq("E6"), sq("E5"), sq("F5")))
    assert format_move(move) == "T G7-F6 xE5 xF5 xE6"
    assert move.captures == (sq("E5"), sq("F5"), sq("E6"))


def test_str_of_a_move_is_its_notation():
    assert str(Move(Side.DWARF, sq("F1"), sq("F5"))) == "d F1-F5"


@pytest.mark.parametrize(
    "text",
    [
        "d F1-F5",
        "dF1-F5",
        "  d F1 - F5  ",
        "df1-f5",
    ],
)
def test_parse_plain_move_forms(text):
    assert parse_move(text, Position.initial()) == Move(Side.DWARF, sq("F1"), sq("F5"))


@pytest.mark.parametrize("text", ["d E4-H4 xH4", "dE4-H4xH4", "d E4-H4 x H4"])
def test_parse_hurl_forms(text):
    assert parse_move(text, HURL_POSITION) == Move(Side.DWARF, sq("E4"), sq("H4"), (sq("H4"),))


@pytest.mark.parametrize(
    "text", ["T G7-F6 xE5 xE6", "TG7-F6xE5xE6", "T G7-F6 xE6 xE5", "TG7-F6xE6xE5"]
)
def test_parse_troll_captures_in_any_order(text):
    expected = Move(Side.TROLL, sq("G7"), sq("F6"), (sq("E5"), sq("E6")))
    assert parse_move(text, STEP_POSITION) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "d",
        "F1-F5",
        "x F1-F5",
        "d F1F5",
        "d F1-F5 x",
        "d I1-F5",
        "d F1-F16",
        "d A1-F5",
        "T G7-F6 xE5 xE5",
        "T G7-F6 xE5,xE6",
        "d F1-F5 extra",
    ],
)
def test_bad_notation_raises_invalid_move_error(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text, Position.initial())


@pytest.mark.parametrize(
    "text",
    [
        "T G7-F6",  # trolls are not to move
        "d F1-F15",  # F15 holds a dwarf
        "d H1-H5",  # no piece on H1
        "d F1-G3",  # not a straight line
        "d F1-F5 xF5",  # a plain move claiming a capture
    ],
)
def test_illegal_moves_raise_illegal_move_error(text):
    with pytest.raises(IllegalMoveError):
        parse_move(text, Position.initial())


def test_errors_are_value_errors():
    assert issubclass(InvalidMoveError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)


def test_parse_respects_the_capture_policy():
    assert parse_move("T G7-F6", STEP_POSITION, "all_or_none")
    with pytest.raises(IllegalMoveError):
        parse_move("T G7-F6 xE5", STEP_POSITION, "all_or_none")
    with pytest.raises(IllegalMoveError):
        parse_move("T G7-F6", STEP_POSITION, "all")


def test_move_kinds():
    assert Move(Side.DWARF, sq("F1"), sq("F5")).kind == "move"
    assert Move(Side.DWARF, sq("E4"), sq("H4"), (sq("H4"),)).kind == "hurl"
    assert Move(Side.TROLL, sq("G7"), sq("F6")).kind == "step"
    assert Move(Side.TROLL, sq("E10"), sq("C10"), (sq("B9"),)).kind == "shove"


def test_play_rejects_illegal_moves():
    with pytest.raises(IllegalMoveError):
        Position.initial().play(Move(Side.DWARF, sq("F1"), sq("G3")))
