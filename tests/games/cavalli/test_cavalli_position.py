"""Position as a value: immutable, comparable, serialisable; the diagram helpers."""

from __future__ import annotations

import dataclasses
import json

import pytest

from games.cavalli import (
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Position,
    Side,
    cells,
    diagram,
    parse_move,
    parse_square,
)
from games.cavalli import replay as engine_replay
from tests.games.cavalli.cavalli_naive import replay

S = parse_square
BOARD = Board.from_seed(7)  # A1 holds 33: the opening can show a double choice


def midgame() -> Position:
    return replay(BOARD, ["A1 xC1", "E10", "B3", "D8 xB2"])


def test_a_position_is_immutable_and_apply_returns_a_new_one():
    pos = Position.initial(BOARD)
    after = pos.apply(parse_move("B1", pos))
    assert pos.white is None and after.white == S("B1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        pos.ply = 3  # type: ignore[misc]


def test_positions_compare_and_hash_by_value():
    assert midgame() == midgame()
    assert hash(midgame()) == hash(midgame())
    assert midgame() != Position.initial(BOARD)


def test_compact_string_round_trips():
    pos = midgame()
    text = pos.to_compact()
    assert "\n" not in text
    assert Position.from_compact(text) == pos
    assert eval(repr(pos), {"Position": Position}) == pos


def test_dict_round_trips_through_json():
    pos = midgame()
    data = json.loads(json.dumps(pos.to_dict()))
    assert data["white"] == "B3" and data["black"] == "D8"
    assert data["to_move"] == "white"
    assert data["scores"] == {"white": pos.white_score, "black": pos.black_score}
    assert data["ply"] == 4
    assert set(data["unusable"]) >= {"A1", "C1", "E10", "B2"}
    assert Position.from_dict(data) == pos


@pytest.mark.parametrize(
    "mutate",
    [
        pytest.param(lambda p: p[:-1], id="seven-fields"),
        pytest.param(lambda p: ["1" + p[0][1:], *p[1:]], id="board-not-permutation"),
        pytest.param(lambda p: [p[0][:-2], *p[1:]], id="board-short"),
        pytest.param(lambda p: [p[0], "z" * 25, *p[2:]], id="mask-not-hex"),
        pytest.param(lambda p: [p[0], p[1][1:], *p[2:]], id="mask-24-digits"),
        pytest.param(lambda p: [p[0], p[1].upper().replace("0", "F"), *p[2:]], id="mask-upper"),
        pytest.param(lambda p: [*p[:2], "K1", *p[3:]], id="white-off-board"),
        pytest.param(lambda p: [*p[:2], p[3], *p[3:]], id="both-on-one-square"),
        pytest.param(lambda p: [*p[:2], "A1", *p[3:]], id="knight-on-unusable"),
        pytest.param(lambda p: [*p[:4], "x", *p[5:]], id="bad-side"),
        pytest.param(lambda p: [*p[:5], "-3", *p[6:]], id="negative-score"),
        pytest.param(lambda p: [*p[:7], "two"], id="bad-ply"),
    ],
)
def test_from_compact_rejects_bad_text(mutate):
    parts = midgame().to_compact().split("/")
    with pytest.raises(InvalidPositionError):
        Position.from_compact("/".join(mutate(parts)))


@pytest.mark.parametrize(
    "change",
    [
        {"board": [0] * 100},
        {"unusable": ["Z9"]},
        {"white": "A1"},
        {"to_move": "red"},
        {"scores": {"white": 1}},
        {"ply": -1},
        {"ply": "1"},
    ],
)
def test_from_dict_rejects_bad_data(change):
    data = {**midgame().to_dict(), **change}
    with pytest.raises(InvalidPositionError):
        Position.from_dict(data)


def test_from_dict_rejects_a_missing_key():
    data = midgame().to_dict()
    del data["black"]
    with pytest.raises(InvalidPositionError):
        Position.from_dict(data)


def test_the_constructor_rejects_a_knight_on_an_unusable_square():
    with pytest.raises(InvalidPositionError, match="unusable"):
        Position(BOARD, frozenset({S("A1")}), S("A1"))


def test_pass_turn_hands_the_move_over_and_keeps_the_board():
    pos = midgame()
    passed = pos.pass_turn()
    assert passed.to_move is Side.BLACK and passed.ply == pos.ply + 1
    assert (passed.unusable, passed.white, passed.black) == (pos.unusable, pos.white, pos.black)
    assert passed.scores == pos.scores


def test_an_unplaced_knight_after_a_passed_turn_still_places_on_its_home_rank():
    pos = Position.initial(BOARD).pass_turn()
    assert pos.to_move is Side.BLACK
    assert {m.to for m in pos.legal_moves()} == {S(f"{f}10") for f in "ABCDEFGHIJ"}


def test_targets_and_choices_for_a_board_ui():
    pos = Position.initial(BOARD)
    assert pos.targets() == list(range(10))
    choices = sorted(BOARD.number_at(sq) for sq in pos.choices(S("A1")))
    assert choices == [0, 11, 22, 44, 55, 66, 77, 88, 99]
    assert pos.choices(S("B1")) == []


def test_cells_describe_every_square_rank_10_first():
    pos = midgame()
    rows = cells(pos)
    assert [len(row) for row in rows] == [10] * 10
    flat = {cell.name: cell for row in rows for cell in row}
    assert rows[0][0].name == "A10" and rows[9][9].name == "J1"
    assert flat["B3"].knight is Side.WHITE and flat["D8"].knight is Side.BLACK
    assert not flat["A1"].usable and flat["A1"].double and flat["A1"].label == "33"
    assert all(flat[name].number == BOARD.number_at(S(name)) for name in flat)


def test_diagram_shows_knights_unusable_squares_and_the_score():
    pos = midgame()
    text = diagram(pos)
    lines = text.splitlines()
    assert len(lines) == 12
    assert lines[9].startswith(" 1  ..  25  ..")  # A1 and C1 are gone
    assert "W" in lines[7] and "B" in lines[2]
    assert lines[-1] == f"white {pos.white_score}, black {pos.black_score}, white to move, ply 4"


def test_moves_are_values():
    assert Move(3) == Move(3, None)
    assert Move(3, 11) != Move(3, 22)
    assert len({Move(3), Move(3)}) == 1


def test_replay_plays_a_history_and_numbers_the_first_bad_move():
    assert replay_history(["A1 xC1", "E10", "B3", "D8 xB2"]) == midgame()
    with pytest.raises(IllegalMoveError, match="^move 3: E5 is not legal"):
        replay_history(["B1", "E10", "E5"])
    with pytest.raises(InvalidMoveError, match="^move 2: not Cavalli move notation"):
        replay_history(["B1", "E10-E9"])
    with pytest.raises(InvalidMoveError, match="^move 2 is empty"):
        replay_history(["B1", " "])


def replay_history(history: list[str]) -> Position:
    return engine_replay(BOARD, history)
