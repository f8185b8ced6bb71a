"""Tiny behind the game interface, checked as the engines are (tests/games/rules/
test_interface.py) and as a package (tests/games/cavalli/test_cavalli_package.py)."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules.interface import (
    BotGame,
    Game,
    InvalidMove,
    MovetextGame,
    Outcome,
    SideInfo,
    Thresholds,
    TournamentScale,
    other_side,
    side_keys,
)
from tests.games.tiny.game import TinyGame

ROOT = Path(__file__).resolve().parents[3]
PURE = [
    "tests.games.tiny",
    "tests.games.tiny.core",
    "tests.games.tiny.core.position",
    "tests.games.tiny.core.notation",
    "tests.games.tiny.core.records",
    "tests.games.tiny.core.perft",
    "tests.games.tiny.bot",
    "tests.games.tiny.bot.search",
    "tests.games.tiny.bot.levels",
    "tests.games.tiny.game",
]
GAME = TinyGame()


def test_the_game_satisfies_all_three_protocols():
    assert isinstance(GAME, Game)
    assert isinstance(GAME, MovetextGame)
    assert isinstance(GAME, BotGame)


def test_what_the_game_declares():
    assert GAME.key == "tiny"
    assert GAME.name == "Tiny"
    assert GAME.sides == (SideInfo("gold", "Gold"), SideInfo("silver", "Silver"))
    assert GAME.words == ("gold", "silver")
    assert GAME.words[0] != GAME.words[1]
    assert all(w.isascii() and w.islower() for w in GAME.words)
    assert GAME.captures_pieces is True
    assert isinstance(GAME.analysis_thresholds, Thresholds)
    assert isinstance(GAME.tournament_scale, TournamentScale)
    assert GAME.tournament_scale.game == GAME.key
    assert GAME.tournament_scale.name == GAME.name


def test_options_and_setup_are_ignored():
    assert TinyGame(capture_policy="all").legal_moves(GAME.initial_state({"board_seed": 3})) == (
        GAME.legal_moves(GAME.initial_state())
    )


def test_first_side_moves_first_and_sides_alternate():
    state = GAME.initial_state({"board_seed": 3})
    first, second = side_keys(GAME)
    assert GAME.side_to_move(state) == first
    state, _info = GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.side_to_move(state) == second
    assert GAME.side_to_move(GAME.pass_turn(state)) == first
    assert other_side(GAME, first) == second


def test_serialise_round_trips_after_moves():
    state = GAME.initial_state()
    while GAME.outcome(state) is None:
        state, _info = GAME.apply(state, GAME.legal_moves(state)[-1])
        assert GAME.deserialise(GAME.serialise(state)) == state
        assert GAME.deserialise(GAME.serialise(GAME.pass_turn(state))) == GAME.pass_turn(state)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "gold",
        "gold sss/.../ggg/...",
        "blue sss/.../ggg",
        "gold sss/.x./ggg",
        "gold ggg/gg./sss",
    ],
)
def test_deserialise_refuses_what_is_no_position(text):
    with pytest.raises(ValueError):
        GAME.deserialise(text)


def test_every_legal_notation_applies_and_comes_back_canonical():
    state = GAME.initial_state()
    for notation in GAME.legal_moves(state):
        _new, info = GAME.apply(state, notation)
        assert info.notation == notation


@pytest.mark.parametrize("text", ["", "zz", "Z99-Q1", "A1-A3", "A1xB2", "B3-B2", "A1A2"])
def test_bad_moves_raise_one_error_type_with_a_message(text):
    with pytest.raises(InvalidMove) as caught:
        GAME.apply(GAME.initial_state(), text)
    assert str(caught.value)


def test_a_step_written_as_a_capture_and_back_is_refused_with_the_right_sign():
    state = GAME.deserialise("gold s../.s./g..")
    with pytest.raises(InvalidMove, match="write it with 'x'"):
        GAME.apply(state, "A1-B2")
    with pytest.raises(InvalidMove, match="write it with '-'"):
        GAME.apply(state, "A1xA2")


def test_apply_reports_captures_and_kind():
    state = GAME.deserialise("gold s../.s./g..")
    new, info = GAME.apply(state, "a1xb2")
    assert (info.notation, info.kind, info.captures) == ("A1xB2", "capture", ("B2",))
    assert info.extra == {"from": "A1"}
    assert GAME.scores(new) == {"gold": 1, "silver": 1}
    _new, info = GAME.apply(state, "A1-A2")
    assert (info.kind, info.captures) == ("step", ())


def test_the_battle_ends_when_the_side_to_move_cannot_move():
    # Gold's pawn is blocked; silver's crossed one scores three.
    state = GAME.deserialise("gold .../s../g..")
    assert GAME.legal_moves(state) == []
    assert GAME.outcome(state) == Outcome({"gold": 1, "silver": 1}, "no_legal_move")
    crossed = GAME.deserialise("gold .../.../s..")
    assert GAME.outcome(crossed) == Outcome({"gold": 0, "silver": 3}, "no_legal_move")
    assert GAME.outcome(crossed).winner == "silver"
    assert GAME.result_numbers(crossed) == (0, 3)
    assert GAME.outcome(GAME.initial_state()) is None
    assert GAME.scores(GAME.initial_state()) == {"gold": 3, "silver": 3}
    assert GAME.row_fields(state) == {}


def test_candidates_are_the_move_between_two_squares():
    state = GAME.deserialise("gold s../.s./g..")
    assert [m.notation for m in GAME.candidates(state, "A1", "B2")] == ["A1xB2"]
    assert [m.notation for m in GAME.candidates(state, "a1", "a2")] == ["A1-A2"]
    assert GAME.candidates(state, "A1", "C3") == []
    assert GAME.candidates(state, "Z9", "A2") == []


def test_owns_is_a_pawn_of_the_side_to_move():
    state = GAME.initial_state()
    assert GAME.owns(state, "A1") and GAME.owns(state, "c1")
    assert not GAME.owns(state, "A3") and not GAME.owns(state, "B2")
    assert not GAME.owns(state, "Q7")
    assert GAME.owns(GAME.pass_turn(state), "A3")


@pytest.mark.parametrize(("text", "name"), [("A1", "A1"), ("c3", "C3"), ("b2", "B2")])
def test_square_name_is_the_canonical_name_of_a_square(text, name):
    assert GAME.square_name(text) == name


@pytest.mark.parametrize(
    "text",
    [
        "      A1",
        "A1 ",
        "A01",
        "A\uff11",
        "\uff21\uff11",
        "A1\x00",
        "",
        "A",
        "1A",
        "D1",
        "A4",
        "A0",
    ],
)
def test_square_name_refuses_anything_else(text):
    with pytest.raises(InvalidMove):
        GAME.square_name(text)


@pytest.mark.parametrize("name", PURE)
def test_docstring_examples_hold(name):
    failures, _attempted = doctest.testmod(importlib.import_module(name))
    assert failures == 0


def test_the_examples_are_there():
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in PURE)
    assert attempted >= 15


def test_the_package_imports_neither_django_nor_celery_nor_another_engine():
    code = (
        f"import sys; import {', '.join(PURE)}; "
        "bad = sorted(m for m in sys.modules "
        "if m.startswith(('django', 'celery', 'games.thud', 'games.cavalli', 'games.engines')) "
        "or m.startswith(('games.', 'tests.')) and not m.startswith(('games.rules', 'tests.games'))); "
        "assert not bad, bad"
    )
    env = {"PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_the_rules_import_nothing_but_the_standard_library_and_games_rules():
    allowed = ("__future__", "games.rules", "tests.games.tiny")
    stdlib = set(sys.stdlib_module_names)
    for path in (ROOT / "tests" / "games" / "tiny").rglob("*.py"):
        if path.name == "web.py":
            continue  # the site's side: Django
        for line in path.read_text().splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]):
                module = words[1]
                assert module.startswith(allowed) or module.split(".")[0] in stdlib, (path, line)
