"""The game interface: both games behind it behave alike (pure, no database)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.engines import registry
from games.rules.interface import Game, InvalidMove, Outcome, other_side, side_keys
from games.thud import Position

GAMES = [registry.get("thud"), registry.get("cavalli")]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_game_satisfies_the_protocol(game):
    assert isinstance(game, Game)
    assert len(game.sides) == 2


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_first_side_moves_first_and_sides_alternate(game):
    state = game.initial_state({"board_seed": 3})
    first, second = side_keys(game)
    assert game.side_to_move(state) == first
    state, _info = game.apply(state, game.legal_moves(state)[0])
    assert game.side_to_move(state) == second
    assert game.side_to_move(game.pass_turn(state)) == first
    assert other_side(game, first) == second


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_serialise_round_trips_after_moves(game):
    state = game.initial_state({"board_seed": 5})
    for _ in range(4):
        state, _info = game.apply(state, game.legal_moves(state)[-1])
        assert game.deserialise(game.serialise(state)) == state


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_every_legal_notation_applies_and_comes_back_canonical(game):
    state = game.initial_state({"board_seed": 1})
    for notation in game.legal_moves(state):
        _new, info = game.apply(state, notation)
        assert info.notation == notation


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
@pytest.mark.parametrize("text", ["", "zz", "Z99-Q1"])
def test_bad_moves_raise_one_error_type_with_a_message(game, text):
    state = game.initial_state()
    with pytest.raises(InvalidMove) as caught:
        game.apply(state, text)
    assert str(caught.value)


def test_thud_capture_policy_is_an_option_of_the_game():
    # A troll next to two dwarfs: "subset" offers each capture subset, "all" only both.
    position = Position.from_compact("troll dE5,dE6,TG7")
    subset = registry.get("thud", capture_policy="subset").legal_moves(position)
    everything = registry.get("thud", capture_policy="all").legal_moves(position)
    assert "T G7-F6 xE5" in subset
    assert "T G7-F6 xE5" not in everything
    assert "T G7-F6 xE5 xE6" in everything


def test_thud_apply_reports_captures_and_kind():
    game = registry.get("thud")
    position = Position.from_compact("troll dE5,dE6,TG7")
    new, info = game.apply(position, "TG7-F6xE5xE6")
    assert (info.notation, info.kind, info.captures) == ("T G7-F6 xE5 xE6", "step", ("E5", "E6"))
    assert game.scores(new) == {"dwarf": 0, "troll": 4}
    assert game.row_fields(new) == {"first_count": 0, "second_count": 1}


def test_thud_outcome_when_the_side_to_move_has_no_move():
    game = registry.get("thud")
    position = Position.from_compact("dwarf TG7")
    assert game.outcome(position) == Outcome({"dwarf": 0, "troll": 4}, "no_legal_move")
    assert game.outcome(game.initial_state()) is None


def test_cavalli_setup_fixes_the_board():
    game = registry.get("cavalli")
    a, b = game.initial_state({"board_seed": 1}), game.initial_state({"board_seed": 2})
    assert a != b
    assert game.initial_state({"board_seed": 1}) == a


def test_unknown_game_is_refused():
    with pytest.raises(registry.UnknownGame):
        registry.get("chess")


def test_the_registry_imports_no_django():
    code = "import sys, games.engines.registry; assert 'django' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    "module",
    ["games.rules.interface", "games.engines.registry", "games.thud.game", "games.cavalli.game"],
)
def test_docstring_examples_hold(module):
    import doctest
    import importlib

    failures, attempted = doctest.testmod(importlib.import_module(module))
    assert attempted and not failures


@pytest.mark.parametrize("key", [key for key, _name in registry.choices()])
def test_each_game_brings_its_own_pages_and_style_sheet(key):
    from django.contrib.staticfiles import finders
    from django.template.loader import get_template

    from games.web import presentations

    game = registry.get(key)
    presentation = presentations.of(game)
    assert presentation.game == key
    assert finders.find(presentation.stylesheet), presentation.stylesheet
    for template in (
        presentation.board_template,
        presentation.rules_template,
        presentation.page_assets,
    ):
        if template:
            get_template(template)
    assert game.words[0] != game.words[1] and all(w.isascii() and w.islower() for w in game.words)


@pytest.mark.parametrize(
    ("game", "text", "name"),
    [
        (GAMES[0], "F1", "F1"),
        (GAMES[0], "f1", "F1"),  # the move parser reads lower case too
        (GAMES[0], "p8", "P8"),
        (GAMES[1], "c3", "C3"),
        (GAMES[1], "J10", "J10"),
    ],
    ids=lambda v: getattr(v, "key", v),
)
def test_square_name_is_the_canonical_name_of_a_square(game, text, name):
    assert game.square_name(text) == name


NOT_SQUARES = [
    "      F1",
    "F1 ",
    "F01",
    "F\uff11",
    "\uff26\uff11",
    "F1\x00",
    "",
    "F",
    "1F",
    "x" * 99,
]


@pytest.mark.parametrize("text", NOT_SQUARES + ["A1", "I5", "P16"])
def test_thud_square_name_refuses_anything_else(text):
    with pytest.raises(InvalidMove):
        GAMES[0].square_name(text)


@pytest.mark.parametrize("text", NOT_SQUARES + ["c 3", "K1", "A11", "A0"])
def test_cavalli_square_name_refuses_anything_else(text):
    with pytest.raises(InvalidMove):
        GAMES[1].square_name(text)
