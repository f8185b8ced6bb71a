"""``python -m ratings glicko2`` is a stable interface for outside checks: test it as they use
it, as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ratings.glicko2 import Game, Rating, rate

ROOT = Path(__file__).resolve().parents[2]
PAPER = {
    "rating": 1500,
    "rd": 200,
    "volatility": 0.06,
    "tau": 0.5,
    "games": [
        {"rating": 1400, "rd": 30, "score": 1},
        {"rating": 1550, "rd": 100, "score": 0},
        {"rating": 1700, "rd": 300, "score": 0},
    ],
}


def run(stdin: str | bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "ratings", *args],
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def test_the_papers_example_prints_the_unrounded_new_values():
    result = run(json.dumps(PAPER), "glicko2")
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    printed = json.loads(result.stdout)
    assert list(printed) == ["rating", "rd", "volatility"]
    expected = rate(
        Rating(1500, 200, 0.06), [Game(1400, 30, 1), Game(1550, 100, 0), Game(1700, 300, 0)]
    )
    # Unrounded: JSON's float text reads back to the very same floats.
    assert printed == {
        "rating": expected.rating,
        "rd": expected.rd,
        "volatility": expected.volatility,
    }
    assert f"{printed['rating']:.2f} {printed['rd']:.2f}" == "1464.05 151.52"


def test_an_empty_period_widens_the_rd_only_and_prints_floats():
    result = run(json.dumps(PAPER | {"games": [], "tau": 0.3}), "glicko2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b'{"rating": 1500.0, "rd": 200.27')
    assert json.loads(result.stdout)["volatility"] == 0.06


def test_keys_it_does_not_know_are_ignored():
    game = {"rating": 1400, "rd": 30, "score": 0.5, "volatility": 0.06, "name": "Sam Vimes"}
    result = run(json.dumps(PAPER | {"games": [game], "player": 7}), "glicko2")
    assert result.returncode == 0, result.stderr


def without(mapping, key):
    return {k: v for k, v in mapping.items() if k != key}


def with_game(**changes):
    return json.dumps(PAPER | {"games": [PAPER["games"][0] | changes]})


BAD = {
    "not JSON": ("rating: 1500", "not JSON"),
    "empty stdin": ("", "not JSON"),
    "not UTF-8": (b"\xff\xfe\xfa{", "not JSON"),
    "trailing text": (json.dumps(PAPER) + " extra", "not JSON"),
    "a list": ("[1500, 200, 0.06]", "JSON object"),
    "negative rd": (json.dumps(PAPER | {"rd": -1}), "rd must not be negative"),
    "negative opponent rd": (with_game(rd=-30), "games[0]: opponent rd must not be negative"),
    "zero volatility": (json.dumps(PAPER | {"volatility": 0}), "volatility must be positive"),
    "score 0.7": (with_game(score=0.7), "games[0]: score must be 0, 0.5 or 1"),
    "score 2": (with_game(score=2), "games[0]: score must be 0, 0.5 or 1"),
    "score true": (with_game(score=True), "games[0]: 'score' must be a number, not true"),
    "missing rating": (json.dumps(without(PAPER, "rating")), "missing field 'rating'"),
    "missing rd": (json.dumps(without(PAPER, "rd")), "missing field 'rd'"),
    "missing volatility": (json.dumps(without(PAPER, "volatility")), "missing field 'volatility'"),
    "missing tau": (json.dumps(without(PAPER, "tau")), "missing field 'tau'"),
    "missing games": (json.dumps(without(PAPER, "games")), "missing field 'games'"),
    "missing game score": (
        json.dumps(PAPER | {"games": [{"rating": 1400, "rd": 30}]}),
        "games[0]: missing field 'score'",
    ),
    "rating as text": (json.dumps(PAPER | {"rating": "1500"}), "'rating' must be a number"),
    "rd null": (json.dumps(PAPER | {"rd": None}), "'rd' must be a number, not null"),
    "games an object": (json.dumps(PAPER | {"games": {}}), "'games' must be a list"),
    "game a number": (json.dumps(PAPER | {"games": [1]}), "games[0]: must be an object"),
    "tau zero": (json.dumps(PAPER | {"tau": 0}), "tau must be positive"),
    "tau negative": (json.dumps(PAPER | {"tau": -0.5}), "tau must be positive"),
    "NaN rating": (json.dumps(PAPER).replace('"rating": 1500', '"rating": NaN'), "finite"),
    "huge integer": (json.dumps(PAPER | {"rating": 10**400}), "'rating' is out of range"),
    "out of range": (
        json.dumps(PAPER | {"rating": 1e300, "games": [{"rating": -1e300, "rd": 0, "score": 0}]}),
        "out of range",
    ),
    "multi-line text": (json.dumps(PAPER | {"rd": "two\nlines"}), "'rd' must be a number"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout(case):
    stdin, message = BAD[case]
    result = run(stdin, "glicko2")
    assert result.returncode == 2
    assert result.stdout == b""
    err = result.stderr.decode()
    assert err.endswith("\n")
    assert err.count("\n") == 1, err
    assert err.startswith("python -m ratings glicko2: error: ")
    assert message in err


@pytest.mark.parametrize("args", [(), ("elo",), ("glicko2", "--bogus")])
def test_bad_arguments_exit_2_with_one_line(args):
    result = run(json.dumps(PAPER), *args)
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.count(b"\n") == 1
