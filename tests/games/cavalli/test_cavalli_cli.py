"""``python -m games.cavalli`` is a stable interface for outside tools: test it as they use it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.cavalli import Board
from tests.games.cavalli.cavalli_naive import random_game

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str, stdin: str = "", env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-m", "games.cavalli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture
def board_file(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(Board.from_seed(7).format())
    return str(path)


def assert_usage_error(result):
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("python -m games.cavalli: error: ")


# --- board --------------------------------------------------------------------------------


def test_board_prints_ten_lines_of_ten_two_digit_numbers():
    result = run("board", "--seed", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert result.stdout.endswith("\n")
    assert len(lines) == 10
    assert lines[0] == "83 60 57 63 15 32 08 97 72 17"
    numbers = [token for line in lines for token in line.split(" ")]
    assert sorted(numbers) == [f"{n:02d}" for n in range(100)]


def test_board_is_the_same_in_every_process():
    first = run("board", "--seed", "42", env={"PYTHONHASHSEED": "1"})
    second = run("board", "--seed", "42", env={"PYTHONHASHSEED": "2"})
    assert first.stdout == second.stdout == Board.from_seed(42).format()
    assert first.stdout.splitlines()[0] == "86 13 17 28 31 35 94 03 14 81"


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["board"], id="no-seed"),
        pytest.param(["board", "--seed", "x"], id="word"),
        pytest.param(["board", "--seed", "-1"], id="negative"),
        pytest.param(["board", "--seed", "1.5"], id="decimal"),
        pytest.param(["board", "--seed", ""], id="empty"),
        pytest.param([], id="no-command"),
        pytest.param(["shuffle"], id="unknown-command"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(args):
    assert_usage_error(run(*args))


# --- moves --------------------------------------------------------------------------------


def test_moves_at_the_start_are_the_placements_sorted(board_file):
    result = run("moves", "--board", board_file)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines == sorted(lines)
    assert len(lines) == 26  # 8 plain squares + 33 and 99 with 9 choices each
    assert "A1 xC1" in lines and "B1" in lines and "C1 xA1" in lines and "A1" not in lines


def test_moves_after_a_history(board_file):
    result = run("moves", "--board", board_file, "--history", "A1 xC1,E10,B3,D8 xB2")
    assert result.returncode == 0, result.stderr
    # B3 (02) burnt A5 (20); A1 and C1 are gone; D8 attacks none of the rest.
    assert result.stdout.splitlines() == ["C5", "D2", "D4"]


def test_history_is_read_leniently(board_file):
    strict = run("moves", "--board", board_file, "--history", "A1 xC1,E10")
    loose = run("moves", "--board", board_file, "--history", " a1xc1 ,  e10 ")
    assert loose.returncode == 0, loose.stderr
    assert loose.stdout == strict.stdout != ""


def test_an_empty_history_is_the_start(board_file):
    assert (
        run("moves", "--board", board_file, "--history", "").stdout
        == run("moves", "--board", board_file).stdout
    )


def test_moves_of_a_finished_game_is_empty(tmp_path):
    pos, history = random_game(3, 3, 200)
    assert pos.outcome() is not None
    path = tmp_path / "b.txt"
    path.write_text(pos.board.format())
    result = run("moves", "--board", str(path), "--history", ",".join(history))
    assert (result.returncode, result.stdout) == (0, "")
    assert run("perft", "2", "--board", str(path), "--history", ",".join(history)).stdout == "0\n"


def test_board_can_come_from_stdin():
    result = run("moves", "--board", "-", stdin=Board.from_seed(1).format())
    assert result.stdout.splitlines() == [f"{f}1" for f in "ABCDEFGHIJ"]


# --- perft --------------------------------------------------------------------------------


def test_perft_counts_move_sequences(board_file):
    assert run("perft", "1", "--board", board_file).stdout == "26\n"
    assert run("perft", "3", "--board", board_file).stdout == "1513\n"
    assert run("perft", "0", "--board", board_file).stdout == "1\n"
    with_history = run("perft", "2", "--board", board_file, "--history", "A1 xC1,E10,B3,D8 xB2")
    assert with_history.stdout == "29\n"


@pytest.mark.parametrize("depth", ["x", "-1", "1.5", ""])
def test_perft_rejects_a_bad_depth(board_file, depth):
    assert_usage_error(run("perft", depth, "--board", board_file))


def test_perft_needs_a_depth_and_a_board(board_file):
    assert_usage_error(run("perft", "--board", board_file))
    assert_usage_error(run("perft", "2"))


# --- bad boards and histories -------------------------------------------------------------

GOOD = Board.from_seed(1).format().splitlines()


def _swap_token(text: str) -> str:
    rows = [line.split(" ") for line in GOOD]
    rows[2][3] = text
    return "\n".join(" ".join(row) for row in rows) + "\n"


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("", id="empty"),
        pytest.param("\n".join(GOOD[:9]) + "\n", id="nine-lines"),
        pytest.param("\n".join([*GOOD, GOOD[0]]) + "\n", id="eleven-lines"),
        pytest.param("\n".join([GOOD[0] + " 00", *GOOD[1:]]) + "\n", id="eleven-columns"),
        pytest.param("\n".join([GOOD[0][:-3], *GOOD[1:]]) + "\n", id="nine-columns"),
        pytest.param(_swap_token("ab"), id="not-a-number"),
        pytest.param(_swap_token("1e1"), id="exponent"),
        pytest.param(_swap_token("100"), id="out-of-range"),
        pytest.param(_swap_token(GOOD[0].split(" ")[0]), id="repeated-number"),
        pytest.param(b"\xff\xfe".decode("latin-1"), id="binary"),
    ],
)
@pytest.mark.parametrize("command", [["moves"], ["perft", "1"]])
def test_a_malformed_board_is_one_line_and_status_2(tmp_path, content, command):
    path = tmp_path / "board.txt"
    path.write_text(content, encoding="latin-1")
    result = run(*command, "--board", str(path))
    assert_usage_error(result)
    assert "bad board" in result.stderr or "cannot read" in result.stderr


def test_a_missing_board_file_is_one_line_and_status_2(tmp_path):
    result = run("moves", "--board", str(tmp_path / "nope.txt"))
    assert_usage_error(result)
    assert "cannot read board file" in result.stderr


def test_a_directory_as_board_is_one_line_and_status_2(tmp_path):
    assert_usage_error(run("moves", "--board", str(tmp_path)))


@pytest.mark.parametrize(
    ("history", "message"),
    [
        pytest.param("E5", "history move 1: E5 is not legal: white places", id="not-rank-1"),
        pytest.param("B1,B1", "history move 2: B1 is not legal: black places", id="black-rank-1"),
        pytest.param("A1", "choose another double", id="double-without-choice"),
        pytest.param("B1 xC1", "not a double", id="choice-after-non-double"),
        pytest.param("B1,E10,E5", "not a knight's jump", id="not-a-jump"),
        pytest.param("B1,,E10", "history move 2 is empty", id="empty-move"),
        pytest.param("B1,E10,", "history move 3 is empty", id="trailing-comma"),
        pytest.param("B1-C3", "not Cavalli move notation", id="malformed"),
        pytest.param("K1", "not Cavalli move notation", id="off-board"),
    ],
)
def test_an_illegal_history_is_one_line_and_status_2(board_file, history, message):
    result = run("moves", "--board", board_file, "--history", history)
    assert_usage_error(result)
    assert message in result.stderr


def test_perft_rejects_an_illegal_history_too(board_file):
    result = run("perft", "1", "--board", board_file, "--history", "B1,B2")
    assert_usage_error(result)
    assert "history move 2: B2 is not legal: black places its knight on rank 10" in result.stderr
