"""``python -m games.thud replay FILE``: run as an outside tool runs it (a subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games.thud.core.records import build_record
from tests.games.records_helpers import greedy_game

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.thud", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("policy", ["subset", "all_or_none", "all"])
def test_replay_prints_the_final_diagram_and_the_survivors(tmp_path, policy):
    moves, final = greedy_game(24, policy, forfeit_at=7)
    path = write(tmp_path, build_record({"Event": "E", "CapturePolicy": policy}, moves))
    out = run("replay", str(path))
    assert out.returncode == 0 and out.stderr == ""
    *diagram, counts = out.stdout.splitlines()
    assert counts == f"dwarfs {final.dwarf_count} trolls {final.troll_count}"
    assert "\n".join(diagram) + "\n" == final.to_diagram()
    # The diagram is the one the ``moves`` command reads.
    moves_out = run_moves("\n".join(diagram) + "\n", policy)
    assert moves_out.returncode == 0
    assert len(moves_out.stdout.splitlines()) == len(final.legal_moves(policy))


def run_moves(stdin: str, policy: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.thud", "moves", "--policy", policy],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_a_record_without_moves_prints_the_opening(tmp_path):
    out = run("replay", str(write(tmp_path, '[Event "E"] [Result "20-3"]\n')))
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "dwarfs 32 trolls 8"


def test_the_capture_policy_tag_is_used(tmp_path):
    # Under "all" a troll step next to two dwarfs must take both: taking one is illegal.
    moves, _ = greedy_game(6, "subset")
    assert moves[5] == "T E5-D4 xD3 xC4"
    moves[5] = "T E5-D4 xD3"
    text = build_record({"Event": "E", "CapturePolicy": "subset"}, moves)
    assert run("replay", str(write(tmp_path, text))).returncode == 0
    text = build_record({"Event": "E", "CapturePolicy": "all"}, moves)
    out = run("replay", str(write(tmp_path, text)))
    assert out.returncode == 2 and "move 3" in out.stderr


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[Event "E"]\n\n1. d F1-F5 T G7-F6 2. d F5-F1 T F6-F5 3. d A1-A2', "move 3"),
        ('[Event "E"]\n\n1. d F1-F5 T G7-F6 2. T F6-E6', "move 2"),
        ('[Event "E"]\n\n1. d F1-F5 T G7-F6 2. d F2-Q9', "move 2: cannot read"),
        ('[Event "E"]\n\n1. d F1-F5 T G7-F6 3. d F5-F4', "move 2: numbered 3"),
        ("1. d F1-F5", "tag pairs"),
        ('[Event "E]\n', "bad tag pair"),
        ('[Event "E"] [CapturePolicy "some"]\n', "unknown CapturePolicy"),
    ],
)
def test_bad_records_print_one_line_and_exit_2(tmp_path, text, fragment):
    out = run("replay", str(write(tmp_path, text)))
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and fragment in out.stderr


def test_missing_or_binary_file_prints_one_line_and_exits_2(tmp_path):
    out = run("replay", str(tmp_path / "nope.txt"))
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1 and "nope.txt" in out.stderr
    path = tmp_path / "bin.txt"
    path.write_bytes(b"\xff\xfe\x00[")
    out = run("replay", str(path))
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1
    out = run("replay")
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1


def test_moves_and_perft_are_unchanged_by_the_new_command():
    assert run("perft", "1").stdout == "656\n"


def test_replay_does_not_import_django(tmp_path):
    path = write(tmp_path, build_record({"Event": "E"}, ["d F1-F5"]))
    code = (
        "import sys; from games.thud.cli import main; rc = main(['replay', sys.argv[1]]); "
        "assert 'django' not in sys.modules, 'django imported'; raise SystemExit(rc)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
