"""The command line is a stable interface for outside tools: test it as they use it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games.thud import Position

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.thud", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


OPENING = Position.initial().to_diagram()


def test_moves_lists_the_656_opening_moves():
    result = run("moves", stdin=OPENING)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 656 == len(set(lines))
    assert "d F1-F5" in lines
    assert all(line.startswith("d ") for line in lines)


def test_moves_accepts_lines_with_trailing_spaces_stripped():
    stripped = "\n".join(line.rstrip() for line in OPENING.splitlines()) + "\n"
    result = run("moves", stdin=stripped)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 656


@pytest.mark.parametrize(("policy", "count"), [("subset", 8), ("all_or_none", 2), ("all", 1)])
def test_moves_prints_each_capture_set_on_its_own_line(policy, count):
    position = Position.from_compact("troll dD3,dE3,dF3,TE5")
    result = run("moves", "--policy", policy, stdin=position.to_diagram())
    assert result.returncode == 0, result.stderr
    assert len([line for line in result.stdout.splitlines() if "E5-E4" in line]) == count


def test_moves_of_a_finished_battle_is_empty():
    position = Position.from_compact("troll dG1,dE2,dF2,dG2,TF1")
    result = run("moves", stdin=position.to_diagram())
    assert (result.returncode, result.stdout) == (0, "")


def _replace(row: int, line: str) -> str:
    lines = OPENING.splitlines()
    lines[row] = line
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "stdin",
    [
        pytest.param("", id="empty"),
        pytest.param("\n".join(OPENING.splitlines()[1:]) + "\n", id="too-few-lines"),
        pytest.param(OPENING + "extra\n", id="too-many-lines"),
        pytest.param(_replace(0, "d    dd.dd"), id="piece-off-board"),
        pytest.param(_replace(7, "......TTT......"), id="no-stone"),
        pytest.param(_replace(7, "......TRR......"), id="two-stones"),
        pytest.param(_replace(7, "R.....T.T......"), id="misplaced-stone"),
        pytest.param(_replace(9, "d......?......d"), id="unknown-char"),
        pytest.param(_replace(15, "elf"), id="unknown-side"),
    ],
)
def test_moves_rejects_bad_input_with_one_line_and_status_2(stdin):
    result = run("moves", stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_moves_rejects_an_unknown_policy():
    result = run("moves", "--policy", "most", stdin=OPENING)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_perft_1_and_2_from_the_opening():
    assert run("perft", "1").stdout == "656\n"
    assert run("perft", "2").stdout == "22624\n"


def test_perft_from_stdin():
    trolls_to_move = Position.initial().pass_turn().to_diagram()
    result = run("perft", "1", "--stdin", stdin=trolls_to_move)
    assert (result.returncode, result.stdout) == (0, "32\n")


@pytest.mark.parametrize("depth", ["x", "-1", "1.5", ""])
def test_perft_rejects_a_bad_depth(depth):
    result = run("perft", depth)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_perft_without_depth_is_an_error():
    assert run("perft").returncode == 2
