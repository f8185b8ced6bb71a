"""The numbered board: seeded shuffle, text form, validation."""

from __future__ import annotations

import random

import pytest

from games.cavalli import Board, InvalidBoardError, parse_square

SEED_1_TOP = "83 60 57 63 15 32 08 97 72 17"
SEED_42_TOP = "86 13 17 28 31 35 94 03 14 81"


def test_from_seed_is_random_random_shuffle_read_in_square_order():
    numbers = list(range(100))
    random.Random(5).shuffle(numbers)
    board = Board.from_seed(5)
    assert board.numbers == tuple(numbers)
    assert board.number_at(parse_square("A1")) == numbers[0]
    assert board.number_at(parse_square("B1")) == numbers[1]
    assert board.number_at(parse_square("A2")) == numbers[10]
    assert board.number_at(parse_square("J10")) == numbers[99]


@pytest.mark.parametrize(("seed", "top"), [(1, SEED_1_TOP), (42, SEED_42_TOP)])
def test_pinned_first_line_of_a_seed(seed, top):
    assert Board.from_seed(seed).format().splitlines()[0] == top


def test_the_same_seed_gives_the_same_board_and_others_differ():
    assert Board.from_seed(9) == Board.from_seed(9)
    assert len({Board.from_seed(seed) for seed in range(20)}) == 20


@pytest.mark.parametrize("seed", [0, 1, 42, 2**40])
def test_a_seeded_board_holds_each_number_once(seed):
    assert sorted(Board.from_seed(seed).numbers) == list(range(100))


@pytest.mark.parametrize("seed", [-1, 1.0, "1", True, None])
def test_a_seed_must_be_a_non_negative_integer(seed):
    with pytest.raises(ValueError, match="seed"):
        Board.from_seed(seed)


def test_format_is_ten_lines_of_ten_two_digit_numbers_rank_10_first():
    board = Board.from_seed(1)
    lines = board.format().splitlines()
    assert len(lines) == 10
    assert all(len(line.split(" ")) == 10 for line in lines)
    assert all(len(token) == 2 for line in lines for token in line.split(" "))
    assert lines[-1].split(" ")[0] == f"{board.number_at(parse_square('A1')):02d}"
    assert lines[0].split(" ")[-1] == f"{board.number_at(parse_square('J10')):02d}"


def test_parse_reads_what_format_writes():
    board = Board.from_seed(3)
    assert Board.parse(board.format()) == board


def test_parse_is_lenient_on_whitespace_and_leading_zeros():
    board = Board.from_seed(3)
    lines = board.format().splitlines()
    loose = "\n\n" + "\r\n".join(
        "\t " + "   ".join(str(int(token)) for token in line.split()) + "  " for line in lines
    )
    assert Board.parse(loose + "\n\n") == board


def test_compact_form_round_trips():
    board = Board.from_seed(8)
    assert len(board.to_compact()) == 200
    assert Board.from_compact(board.to_compact()) == board
    assert eval(repr(board), {"Board": Board}) == board


def _lines(seed: int = 1) -> list[str]:
    return Board.from_seed(seed).format().splitlines()


def _with_token(row: int, col: int, token: str) -> str:
    lines = [line.split(" ") for line in _lines()]
    lines[row][col] = token
    return "\n".join(" ".join(line) for line in lines)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("", "10 lines, not 0", id="empty"),
        pytest.param("\n".join(_lines()[:9]), "10 lines, not 9", id="nine-lines"),
        pytest.param("\n".join([*_lines(), _lines()[0]]), "not 11", id="eleven-lines"),
        pytest.param("\n".join(_lines()[:5] + [""] + _lines()[5:]), "not 11", id="blank-line"),
        pytest.param("\n".join([_lines()[0] + " 00", *_lines()[1:]]), "11 numbers", id="long-line"),
        pytest.param(
            "\n".join([" ".join(_lines()[0].split()[:9]), *_lines()[1:]]),
            "9 numbers",
            id="short-line",
        ),
        pytest.param(
            _with_token(3, 4, "ab"), "'ab' on line 4 .square E7. is not a number", id="word"
        ),
        pytest.param(_with_token(0, 0, "-1"), "is not a number", id="negative"),
        pytest.param(_with_token(0, 0, "1.5"), "is not a number", id="decimal"),
        pytest.param(_with_token(0, 0, "+5"), "is not a number", id="plus-sign"),
        pytest.param(
            _with_token(0, 0, "100"), "100 on A10 is not a number from 00 to 99", id="100"
        ),
        pytest.param(_with_token(0, 0, _lines()[0].split()[1]), "appears twice", id="repeat"),
    ],
)
def test_parse_rejects_a_malformed_board_with_one_line(text, message):
    with pytest.raises(InvalidBoardError, match=message) as info:
        Board.parse(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "numbers",
    [
        pytest.param(tuple(range(99)), id="99-numbers"),
        pytest.param((*range(99), 99.0), id="a-float"),
        pytest.param((*range(98), 0, 99), id="duplicate"),
        pytest.param(None, id="none"),
    ],
)
def test_the_constructor_checks_the_numbers(numbers):
    with pytest.raises(InvalidBoardError):
        Board(numbers)


def test_doubles_are_found_on_their_squares():
    board = Board.from_seed(1)
    assert sorted(board.number_at(sq) for sq in board.double_squares) == [
        0, 11, 22, 33, 44, 55, 66, 77, 88, 99,
    ]  # fmt: skip
