"""The computer player (games.cavalli.bot): legal moves, its time budget, a win and a
blunder in one, levels reproducible for a seed, and ``python -m games.cavalli bot``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cavalli import SQUARES, Board, Position, Side, format_move, parse_square
from games.cavalli.bot import LEVELS, choose_move
from games.cavalli.bot.search import CLOCK_EVERY
from games.cavalli.game import CavalliGame
from games.rules.interface import WIN, BotGame
from tests.games.cavalli.cavalli_naive import make_board, random_game

ROOT = Path(__file__).resolve().parents[3]
PROG = "python -m games.cavalli: error: "


def frozen_clock() -> float:
    """A clock that never moves: only a depth or node limit ends the search."""
    return 0.0


class StepClock:
    """Each read is one millisecond later than the one before."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return (self.reads - 1) / 1000


def endgame(numbers: dict[str, int], white: str, black: str, scores: tuple[int, int]):
    """White to move on a board where only the named squares are usable."""
    board = make_board(numbers)
    usable = {parse_square(name) for name in numbers}
    return Position(
        board,
        frozenset(sq for sq in SQUARES if sq not in usable),
        parse_square(white),
        parse_square(black),
        Side.WHITE,
        *scores,
        ply=20,
    )


def solve(pos: Position) -> int:
    """The exact final margin for the side to move, by plain minimax (small endings only)."""
    moves = pos.legal_moves()
    if not moves:
        return pos.score(pos.to_move) - pos.score(pos.to_move.other)
    return max(-solve(pos.apply(m)) for m in moves)


# White on E6 lands on G7 (20): black on J10 is left with H9 and I8, both attacked, and
# the game ends 120-100. The greedy F4 (60) is a dead end: black takes H9 (98), white is
# stuck and loses 160-198.
WIN_IN_ONE = {"E6": 12, "J10": 13, "G7": 20, "F4": 60, "H9": 98, "I8": 97}
# White 100, black 150. The greedy F4 (95) is a dead end: black takes H9 (60) and white,
# stuck, loses 195-210. D8 (30) then C10 (85) wins 215-210 whatever black does.
BLUNDER = {"E6": 12, "J10": 13, "F4": 95, "D8": 30, "H9": 60, "I8": 40, "C10": 85}


def test_takes_the_win_in_one():
    pos = endgame(WIN_IN_ONE, "E6", "J10", (100, 100))
    assert {format_move(m): -solve(pos.apply(m)) for m in pos.legal_moves()} == {
        "F4": -38,
        "G7": 20,
    }
    for depth in (1, 4):
        choice = choose_move(pos, level=5, clock=frozen_clock, max_depth=depth)
        assert format_move(choice.move) == "G7"
        assert choice.result.score == WIN + 100 * 20


def test_avoids_the_blunder_in_one():
    pos = endgame(BLUNDER, "E6", "J10", (100, 150))
    assert {format_move(m): -solve(pos.apply(m)) for m in pos.legal_moves()} == {
        "D8": 5,
        "F4": -15,
    }
    greedy = choose_move(pos, level=5, clock=frozen_clock, max_depth=1)
    assert format_move(greedy.move) == "F4"  # the trap: it looks best one ply deep
    choice = choose_move(pos, level=5, clock=frozen_clock, max_depth=3)
    assert format_move(choice.move) == "D8"
    scores = CavalliGame().analyse(pos, budget_ms=10**6, clock=frozen_clock)
    assert scores.scores == (("D8", WIN + 500), ("F4", -WIN - 1500))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(0, 2**32 - 1),
    st.integers(0, 40),
    st.booleans(),
    st.sampled_from(sorted(LEVELS)),
    st.integers(0, 2**32 - 1),
)
def test_always_a_legal_move(board_seed, play_seed, plies, passed, level, seed):
    pos, _ = random_game(board_seed, play_seed, plies, 0.5)
    if passed:
        pos = pos.pass_turn()  # the other side to move, as after a turn lost on the clock
    if not pos.has_legal_move():
        with pytest.raises(ValueError, match="no legal move"):
            choose_move(pos, level=level, seed=seed, clock=frozen_clock, node_limit=200)
        return
    choice = choose_move(pos, level=level, seed=seed, clock=frozen_clock, node_limit=200)
    assert choice.move in pos.legal_moves()
    game = CavalliGame()
    text = game.bot_move(pos, level=level, seed=seed, budget_ms=5, clock=StepClock())
    assert text in game.legal_moves(pos)


@pytest.mark.parametrize("level", [1, 5])
def test_respects_its_budget_on_a_fake_clock(level):
    pos = Position.initial(Board.from_seed(7))
    clock = StepClock()
    choice = choose_move(pos, level=level, clock=clock, budget_ms=40, max_depth=8)
    share = LEVELS[level].budget_share
    if LEVELS[level].max_depth >= 8:
        assert choice.result.stopped
    # The clock is read at the start and once every CLOCK_EVERY nodes: no read after the
    # deadline but the one that stops the search.
    assert clock.reads <= 40 * share + 2
    assert choice.result.nodes <= (40 * share + 2) * CLOCK_EVERY
    assert choice.move in pos.legal_moves()


def test_analyse_scores_every_move_best_first_from_the_movers_view():
    game = CavalliGame()
    assert isinstance(game, BotGame)
    pos, _ = random_game(16, 5, 16)  # nine moves: a bound would not do for the later ones
    scores = game.analyse(pos, budget_ms=10**4, clock=StepClock(), plies_left=3)
    assert sorted(n for n, _ in scores.scores) == sorted(game.legal_moves(pos))
    values = [v for _, v in scores.scores]
    assert values == sorted(values, reverse=True)
    # Three plies to the move limit: every line is played out, so each score is final.
    for notation, value in scores.scores:
        after, _ = game.apply(pos, notation)
        margin = -solve_limited(after, 2)
        assert value == (
            0 if margin == 0 else WIN + 100 * margin if margin > 0 else -WIN + 100 * margin
        )


def solve_limited(pos: Position, plies: int) -> int:
    """The final margin for the side to move when the game ends in ``plies`` plies."""
    moves = pos.legal_moves()
    if plies == 0 or not moves:
        return pos.score(pos.to_move) - pos.score(pos.to_move.other)
    return max(-solve_limited(pos.apply(m), plies - 1) for m in moves)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_levels_are_reproducible_for_a_seed(level):
    pos, _ = random_game(11, 2, 6)
    moves = {
        format_move(
            choose_move(pos, level=level, seed=seed, clock=frozen_clock, node_limit=3000).move
        )
        for seed in (4, 4, 4)
    }
    assert len(moves) == 1


def test_level_one_varies_with_the_seed():
    pos, _ = random_game(11, 2, 6)
    moves = {
        format_move(choose_move(pos, level=1, seed=seed, clock=frozen_clock).move)
        for seed in range(12)
    }
    assert len(moves) > 1


def test_bad_level_and_move_limit_are_refused():
    pos = Position.initial(Board.from_seed(1))
    with pytest.raises(ValueError, match="level must be 1 to 5"):
        choose_move(pos, level=6, clock=frozen_clock)
    with pytest.raises(ValueError, match="plies_left"):
        choose_move(pos, level=3, clock=frozen_clock, plies_left=0)


# --- the command line ---------------------------------------------------------------------


def run(*args: str):
    return subprocess.run(
        [sys.executable, "-m", "games.cavalli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.fixture
def board_file(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(Board.from_seed(7).format())
    return str(path)


def test_cli_bot_prints_one_legal_move(board_file):
    pos, history = random_game(7, 3, 9)
    result = run(
        "bot", "--board", board_file, "--history", ",".join(history), "--ms", "200",
        "--level", "4", "--seed", "9",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.endswith("\n") and len(result.stdout.splitlines()) == 1
    assert result.stdout.strip() in CavalliGame().legal_moves(pos)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--history", "B2"], "history move 1: B2 is not legal"),
        (["--level", "0"], "LEVEL must be from 1 to 5"),
        (["--ms", "fast"], "MS must be a non-negative whole number"),
        (["--history", "OVER"], "black has no legal move: the game is over"),
    ],
)
def test_cli_bot_refuses_bad_input(board_file, args, message):
    if args[-1] == "OVER":
        _, history = random_game(7, 3, 200)
        args = ["--history", ",".join(history)]
        if len(history) % 2 == 0:
            message = message.replace("black", "white")
    result = run("bot", "--board", board_file, *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith(PROG)
    assert message in result.stderr


def test_cli_bot_refuses_a_malformed_board(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(Board.from_seed(7).format().replace("07", "08", 1))
    result = run("bot", "--board", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(PROG + f"bad board in '{path}'")
