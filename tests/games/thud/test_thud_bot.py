"""The computer player (games.thud.bot): legal moves, its time budget, tactics in one."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.rules.interface import WIN, BotGame, points
from games.thud import CapturePolicy, Position, Side, parse_move
from games.thud.bot import choose_move
from games.thud.bot.moves import generate
from games.thud.bot.search import CLOCK_EVERY
from games.thud.core.board import mask_of
from games.thud.core.movegen import (
    dwarf_moves,
    hurl_targets,
    hurls,
    troll_captures,
    troll_moves,
    troll_steps,
)
from games.thud.game import ThudGame
from tests.games.thud.naive import random_playout

ROOT = Path(__file__).resolve().parents[3]


def frozen_clock() -> float:
    """A clock that never moves: only the depth cap ends the search."""
    return 0.0


class StepClock:
    """Each read is one millisecond later than the one before."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return (self.reads - 1) / 1000


def playable(seed: int, policy: CapturePolicy) -> Position:
    pos = random_playout(seed, 5 + seed * 4 % 120, policy, 0.5)
    if seed % 2:
        pos = pos.pass_turn()  # both sides to move
    return pos


@pytest.mark.parametrize("policy", list(CapturePolicy))
def test_bot_always_returns_a_legal_move(policy):
    played = 0
    for seed in range(30):
        pos = playable(seed, policy)
        if pos.outcome(policy) is not None:
            continue
        level = (1, 1, 2, 3, 5)[seed % 5]
        choice = choose_move(
            pos, policy, level=level, seed=seed, clock=time.monotonic, budget_ms=20
        )
        assert pos.is_legal(choice.move, policy), (pos.to_compact(), choice.move)
        played += 1
    assert played >= 20


@pytest.mark.parametrize("policy", list(CapturePolicy))
def test_search_tries_only_legal_moves_and_every_capture_landing(policy):
    for seed in range(30):
        pos = playable(seed, policy)
        d, t = mask_of(pos.dwarfs), mask_of(pos.trolls)
        for dwarf_turn in (True, False):
            legal = dwarf_moves(d, t) if dwarf_turn else troll_moves(d, t, policy.value)
            tried = generate(d, t, dwarf_turn, policy.value)
            assert set(tried) <= set(legal)
            # Each (from, to) of a legal move is tried, with its largest capture.
            biggest: dict[tuple[int, int], int] = {}
            for f, to, cap in legal:
                biggest[f, to] = max(biggest.get((f, to), 0), cap.bit_count())
            best_tried = {(f, to, cap.bit_count()) for f, to, cap in tried}
            assert all((f, to, n) in best_tried for (f, to), n in biggest.items())
            assert {(f, to) for f, to, _ in tried} == set(biggest)
            for f, to, cap in tried:
                assert cap.bit_count() in (0, biggest[f, to])
            # ... and so is the step that spares the dwarfs, where the policy allows it.
            assert {m for m in legal if not m[2]} <= set(tried)


def test_search_stops_when_the_deadline_passes():
    clock = StepClock()
    pos = Position.initial()
    choice = choose_move(pos, level=5, clock=clock, budget_ms=10, max_depth=4)
    result = choice.result
    assert result.stopped
    assert result.depth < 4
    # The clock is read once at the start and once every CLOCK_EVERY nodes; the tenth
    # read after the start is at the deadline, so the search ends at that node.
    assert result.nodes == 10 * CLOCK_EVERY
    assert result.finished >= result.started + 0.010
    assert pos.is_legal(choice.move)


def test_search_without_deadline_pressure_finishes_its_depth():
    result = choose_move(
        Position.initial().pass_turn(), level=5, clock=frozen_clock, max_depth=2
    ).result
    assert not result.stopped
    assert result.depth == 2


def test_node_limit_stops_the_search_and_still_answers():
    pos = Position.initial()
    choice = choose_move(pos, level=5, clock=frozen_clock, node_limit=50)
    assert choice.result.stopped and choice.result.nodes == 51
    assert pos.is_legal(choice.move)


@pytest.mark.parametrize("seed", [3, 12])  # the dwarfs to move, the trolls to move
def test_an_interrupted_iteration_keeps_the_better_move_it_proved(seed):
    """Depth 2 prefers another move than depth 1; stopped one node before depth 2 ends,
    the search has proved that move better and plays it (not depth 1's)."""
    pos = playable(seed, CapturePolicy.ALL_OR_NONE)
    one = choose_move(pos, level=5, clock=frozen_clock, max_depth=1)
    two = choose_move(pos, level=5, clock=frozen_clock, max_depth=2)
    assert one.move != two.move
    cut = choose_move(
        pos, level=5, clock=frozen_clock, max_depth=2, node_limit=two.result.nodes - 1
    )
    assert cut.result.stopped and cut.result.depth == 1
    assert cut.move == two.move


@pytest.mark.parametrize("policy", list(CapturePolicy))
def test_dwarfs_find_the_hurl_that_takes_a_troll(policy):
    # A line of five dwarfs on rank 7 hurls E7 four squares onto the troll on J7.
    pos = Position.from_compact("dwarf dA7,dB7,dC7,dD7,dE7,TJ7,TN12")
    for level in (3, 5):
        move = choose_move(pos, policy, level=level, clock=frozen_clock, max_depth=2).move
        assert move.kind == "hurl" and move.captures == ((6, 8),), move


@pytest.mark.parametrize("policy", list(CapturePolicy))
def test_troll_takes_the_dwarf_in_reach(policy):
    pos = Position.from_compact("troll dF5,TH5,dN12,dM12")
    move = choose_move(pos, policy, level=5, clock=frozen_clock, max_depth=2).move
    assert move.captures == ((4, 5),), move


def hangs(pos: Position, move, policy) -> bool:
    after = pos.apply(move)
    return any(m.captures for m in after.legal_moves(policy))


@pytest.mark.parametrize("policy", list(CapturePolicy))
def test_troll_does_not_step_into_a_hurl(policy):
    # From J6 the troll may step onto rank 7, in reach of the five-dwarf line's hurl.
    pos = Position.from_compact("troll dA7,dB7,dC7,dD7,dE7,TJ6")
    moves = pos.legal_moves(policy)
    assert any(hangs(pos, m, policy) for m in moves)
    assert not all(hangs(pos, m, policy) for m in moves)
    for level in (3, 4, 5):
        move = choose_move(pos, policy, level=level, clock=frozen_clock, max_depth=3).move
        assert not hangs(pos, move, policy), (level, move)


def test_same_seed_same_move_and_level_one_varies_with_the_seed():
    pos = random_playout(11, 30, CapturePolicy.SUBSET, 0.5)

    def pick(level: int, seed: int):
        return choose_move(pos, level=level, seed=seed, clock=frozen_clock, max_depth=1).move

    assert pick(1, 7) == pick(1, 7)
    assert len({pick(1, seed) for seed in range(10)}) > 1
    assert len({pick(5, seed) for seed in range(3)}) == 1


def test_move_limit_is_the_end_of_the_battle():
    # One ply left: the dwarfs' hurl is the last move, so taking the troll wins outright.
    pos = Position.from_compact("dwarf dA7,dB7,dC7,dD7,dE7,TJ7,TN12")
    choice = choose_move(pos, level=5, clock=frozen_clock, max_depth=3, plies_left=1)
    assert choice.move.captures == ((6, 8),)
    # 5 dwarfs against 1 troll when the battle ends: a win, not just a good position.
    assert choice.result.score > WIN // 2


def test_bad_level_is_refused():
    with pytest.raises(ValueError, match="level"):
        choose_move(Position.initial(), level=6, clock=frozen_clock)
    with pytest.raises(ValueError, match="no legal move"):
        choose_move(Position.from_compact("troll TF1,dG1,dE2,dF2,dG2"), clock=frozen_clock)
    assert Position.initial().side_to_move is Side.DWARF


# --- the command line, as outside tools run it -------------------------------------------

OPENING = Position.initial().to_diagram()


def run_bot(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.thud", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_prints_one_legal_move_and_nothing_else():
    pos = Position.from_compact("troll dF5,TH5,dN12,dM12")
    result = run_bot("--policy", "all", "--level", "3", "--depth", "2", stdin=pos.to_diagram())
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1
    move = parse_move(result.stdout.strip(), pos, CapturePolicy.ALL)
    assert pos.is_legal(move, CapturePolicy.ALL) and move.captures == ((4, 5),)


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        ((), "not a board\n", "expected 15 board lines"),
        (("--level", "6"), OPENING, "LEVEL must be from 1 to 5"),
        (("--ms", "0"), OPENING, "MS must be >= 1"),
        ((), Position.from_compact("troll TF1,dG1,dE2,dF2,dG2").to_diagram(), "no legal move"),
        ((), Position.from_compact("dwarf TF1").to_diagram(), "no pieces"),
    ],
)
def test_cli_refuses_bad_input(args, stdin, message):
    result = run_bot(*args, stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


# --- the BotGame protocol (games.rules.interface), as the bots queue calls it -------------------


@pytest.mark.parametrize("policy", list(CapturePolicy))
def test_game_bot_move_is_a_legal_move_in_canonical_notation(policy):
    game = ThudGame(policy.value)
    assert isinstance(game, BotGame)
    for seed in range(6):
        pos = playable(seed, policy)
        if pos.outcome(policy) is not None:
            continue
        for level in (1, 5):
            text = game.bot_move(pos, level=level, seed=seed, budget_ms=30, clock=StepClock())
            assert text in game.legal_moves(pos), (pos.to_compact(), text)
            _state, info = game.apply(pos, text)
            assert info.notation == text


def test_game_bot_move_refuses_what_it_cannot_play():
    game = ThudGame()
    with pytest.raises(ValueError, match="level"):
        game.bot_move(Position.initial(), level=0, seed=0, budget_ms=10, clock=frozen_clock)
    stuck = Position.from_compact("troll TF1,dG1,dE2,dF2,dG2")
    with pytest.raises(ValueError, match="no legal move"):
        game.bot_move(stuck, level=5, seed=0, budget_ms=10, clock=frozen_clock)
    over = Position.from_compact("troll TF1,TG7")
    with pytest.raises(ValueError, match="over"):
        game.bot_move(over, level=5, seed=0, budget_ms=10, clock=frozen_clock)
    with pytest.raises(ValueError, match="over"):
        game.analyse(over, budget_ms=10, clock=frozen_clock)


@pytest.mark.parametrize("policy", [CapturePolicy.ALL, CapturePolicy.ALL_OR_NONE])
def test_analyse_scores_every_move_best_first_from_the_mover_side(policy):
    game = ThudGame(policy.value)
    pos = Position.from_compact("troll dF5,TH5,dN12,dM12")
    scores = game.analyse(pos, budget_ms=1000, clock=frozen_clock, max_depth=2)
    assert scores.depth == 2 and scores.nodes > 0
    assert sorted(n for n, _ in scores.scores) == sorted(game.legal_moves(pos))
    values = [v for _, v in scores.scores]
    assert values == sorted(values, reverse=True)
    # The troll to move takes F5 (from G4, G5 or G6): from the trolls' side that is good
    # (positive), and the same step without the capture (all_or_none) is about a dwarf worse.
    capture, best = scores.best
    assert capture.endswith(" xF5") and best > 0
    assert all(v < best - 50 for n, v in scores.scores if not n.endswith(" xF5"))
    if policy is CapturePolicy.ALL_OR_NONE:
        spared = scores.score_of("T H5-G5")
        taken = scores.score_of("T H5-G5 xF5")
        assert spared is not None and taken is not None and taken - spared >= 50


def test_analyse_under_subset_scores_each_troll_move_with_all_or_none_captures():
    game = ThudGame()
    pos = Position.from_compact("troll dF5,dF6,TH5,dN12,dM12")
    scores = game.analyse(pos, budget_ms=1000, clock=frozen_clock, max_depth=1)
    names = {n for n, _ in scores.scores}
    legal = set(game.legal_moves(pos))
    assert names <= legal
    assert "T H5-G5 xF5 xF6" in names and "T H5-G5" in names
    assert "T H5-G5 xF5" not in names  # a partial capture: the search need not tell it apart


def test_analyse_reads_a_won_battle_beyond_win():
    game = ThudGame()
    pos = Position.from_compact("dwarf dA7,dB7,dC7,dD7,dE7,TJ7,TN12")
    scores = game.analyse(pos, budget_ms=1000, clock=frozen_clock, max_depth=3, plies_left=1)
    notation, value = scores.best
    assert notation == "d E7-J7 xJ7"
    assert value == WIN + 100 and points(value) == 1  # 5 dwarfs, 1 troll: 5 - 4
    with pytest.raises(ValueError, match="plies_left"):
        game.analyse(pos, budget_ms=10, clock=frozen_clock, plies_left=0)


# --- properties over positions reached by random play -------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 100_000),
    plies=st.integers(0, 150),
    policy=st.sampled_from(list(CapturePolicy)),
    level=st.integers(1, 5),
    swap=st.booleans(),
)
def test_bot_returns_a_legal_move_in_any_reached_position(seed, plies, policy, level, swap):
    pos = random_playout(seed, plies, policy, 0.6)
    if swap:
        pos = pos.pass_turn()  # either side to move
    assume(pos.outcome(policy) is None)
    limit = (None, 1, 3, 60)[seed % 4]
    choice = choose_move(
        pos,
        policy,
        level=level,
        seed=seed,
        clock=frozen_clock,
        max_depth=2,
        node_limit=2_000,
        plies_left=limit,
    )
    assert pos.is_legal(choice.move, policy), (pos.to_compact(), choice.move)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 100_000), plies=st.integers(0, 200))
def test_capture_generators_match_the_full_move_lists(seed, plies):
    pos = random_playout(seed, plies, CapturePolicy.SUBSET, 0.6)
    d, t = pos._d, pos._t
    expected_hurls = [m for m in dwarf_moves(d, t) if m[2]]
    assert sorted(hurls(d, t)) == sorted(expected_hurls)
    assert hurl_targets(d, t) == sum({m[2] for m in expected_hurls})
    assert sorted(troll_captures(d, t)) == sorted(m for m in troll_moves(d, t, "all") if m[2])
    for policy, spare in (("all_or_none", True), ("all", False)):
        steps = troll_steps(d, t, spare)
        assert sorted(troll_captures(d, t) + steps) == sorted(troll_moves(d, t, policy))


@pytest.mark.parametrize("level", [1, 3, 5])
def test_every_level_stops_at_its_budget_on_a_fake_clock(level):
    # Each clock read is a millisecond later: a search that ignored its deadline would read
    # the clock far past it (the opening at depth 4 takes many thousand nodes).
    clock = StepClock()
    game = ThudGame("all_or_none")
    pos = random_playout(3, 40, CapturePolicy.ALL_OR_NONE, 0.5)
    choice = choose_move(pos, "all_or_none", level=level, seed=1, clock=clock, budget_ms=20)
    assert pos.is_legal(choice.move, CapturePolicy.ALL_OR_NONE)
    assert choice.result.finished - choice.result.started <= 0.020 + 0.002
    clock = StepClock()
    move = game.bot_move(pos, level=level, seed=1, budget_ms=20, clock=clock)
    assert move in game.legal_moves(pos) and clock.reads <= 23
