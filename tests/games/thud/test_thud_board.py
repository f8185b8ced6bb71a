from __future__ import annotations

import pytest

from games.thud import (
    SQUARES,
    STONE,
    InvalidPositionError,
    Position,
    Side,
    format_square,
    parse_square,
)
from games.thud.core.board import on_board

OPENING_DWARFS = (
    "F1 G1 J1 K1 E2 L2 D3 M3 C4 N4 B5 O5 A6 P6 A7 P7 A9 P9 A10 P10 B11 O11 "
    "C12 N12 D13 M13 E14 L14 F15 G15 J15 K15"
)
OPENING = """\
     dd.dd
    d.....d
   d.......d
  d.........d
 d...........d
d.............d
d.....TTT.....d
......TRT......
d.....TTT.....d
d.............d
 d...........d
  d.........d
   d.......d
    d.....d
     dd.dd
dwarf
"""


def test_board_has_165_squares():
    assert len(SQUARES) == 165
    assert sum(on_board(r, c) for r in range(15) for c in range(15)) == 165


@pytest.mark.parametrize(
    ("row", "cols"),
    [(0, range(5, 10)), (1, range(4, 11)), (4, range(1, 14)), (7, range(15)), (14, range(5, 10))],
)
def test_board_rows_span_the_octagon(row, cols):
    assert [c for c in range(15) if on_board(row, c)] == list(cols)


def test_thudstone_is_h8():
    assert STONE == (7, 7) == parse_square("H8")


@pytest.mark.parametrize(
    ("text", "square"),
    [("F1", (0, 5)), ("H8", (7, 7)), ("A6", (5, 0)), ("P10", (9, 14)), ("K15", (14, 9))],
)
def test_square_names(text, square):
    assert parse_square(text) == square
    assert format_square(square) == text


@pytest.mark.parametrize("text", ["I8", "A1", "P1", "H16", "H0", "Z3", "", "8H", "F"])
def test_bad_square_names_are_rejected(text):
    with pytest.raises(ValueError):
        parse_square(text)


def test_files_skip_the_letter_i():
    assert [format_square((7, c))[0] for c in range(15)] == list("ABCDEFGHJKLMNOP")


def test_opening_layout():
    position = Position.initial()
    trolls = {"G7", "H7", "J7", "G8", "J8", "G9", "H9", "J9"}
    dwarfs = set(OPENING_DWARFS.split())
    assert {format_square(sq) for sq in position.trolls} == trolls
    assert {format_square(sq) for sq in position.dwarfs} == dwarfs
    assert position.side_to_move is Side.DWARF
    assert (position.dwarf_count, position.troll_count) == (32, 8)


def test_opening_dwarfs_fill_the_rim_except_the_four_in_line_with_the_stone():
    def on_rim(r, c):
        return any(not on_board(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))

    rim = {sq for sq in SQUARES if on_rim(*sq)}
    assert len(rim) == 36
    gaps = {parse_square(s) for s in ("H1", "A8", "P8", "H15")}
    assert Position.initial().dwarfs == rim - gaps


def test_opening_diagram_round_trip():
    assert (
        Position.initial().to_diagram()
        == "\n".join(
            line.ljust(15) if i < 15 else line for i, line in enumerate(OPENING.splitlines())
        )
        + "\n"
    )
    assert Position.from_diagram(OPENING) == Position.initial()
    assert Position.from_diagram(Position.initial().to_diagram()) == Position.initial()


def test_diagram_accepts_stripped_trailing_spaces_and_crlf():
    text = "\r\n".join(line.rstrip() for line in OPENING.splitlines()) + "\r\n\r\n"
    assert Position.from_diagram(text) == Position.initial()


def _opening_lines():
    return OPENING.splitlines()


@pytest.mark.parametrize(
    "mutate",
    [
        pytest.param(lambda ls: ls[:-2] + ls[-1:], id="fourteen-board-lines"),
        pytest.param(lambda ls: [*ls[:15], "     .....", ls[15]], id="sixteen-board-lines"),
        pytest.param(lambda ls: ls[:15], id="no-side-line"),
        pytest.param(lambda ls: [*ls[:15], "orc"], id="unknown-side"),
        pytest.param(lambda ls: ["d" + ls[0][1:], *ls[1:]], id="piece-off-board"),
        pytest.param(lambda ls: [*ls[:7], "......T.T......", *ls[8:]], id="no-stone"),
        pytest.param(lambda ls: [*ls[:7], "......TTR......", *ls[8:]], id="misplaced-stone"),
        pytest.param(lambda ls: [*ls[:9], "d.R...........d", *ls[10:]], id="two-stones"),
        pytest.param(lambda ls: [*ls[:9], "d....x........d", *ls[10:]], id="unknown-char"),
        pytest.param(lambda ls: [*ls[:9], "d.... ........d", *ls[10:]], id="blank-on-board"),
        pytest.param(lambda ls: [*ls[:9], "d.............d.", *ls[10:]], id="long-line"),
    ],
)
def test_bad_diagrams_are_rejected(mutate):
    with pytest.raises(InvalidPositionError) as info:
        Position.from_diagram("\n".join(mutate(_opening_lines())) + "\n")
    assert "\n" not in str(info.value)


def test_position_rejects_pieces_on_the_stone_or_off_board():
    with pytest.raises(InvalidPositionError):
        Position(frozenset({(7, 7)}), frozenset(), Side.DWARF)
    with pytest.raises(InvalidPositionError):
        Position(frozenset({(0, 0)}), frozenset(), Side.DWARF)
    with pytest.raises(InvalidPositionError):
        Position(frozenset({(0, 5)}), frozenset({(0, 5)}), Side.DWARF)
    for bad in [(0, 20), (-1, 5), (15, 7), (7, -1)]:  # bit indices that would wrap
        with pytest.raises(InvalidPositionError):
            Position(frozenset({bad}), frozenset(), Side.DWARF)


def test_positions_are_values():
    a = Position.initial()
    b = Position(a.dwarfs, a.trolls, Side.DWARF)
    assert a == b and hash(a) == hash(b)
    assert a != a.pass_turn()
    with pytest.raises(AttributeError):
        a.side_to_move = Side.TROLL  # type: ignore[misc]


def test_piece_at():
    position = Position.initial()
    assert position.piece_at(parse_square("F1")) == "d"
    assert position.piece_at(parse_square("G7")) == "T"
    assert position.piece_at(parse_square("H8")) is None
    assert position.piece_at(parse_square("H1")) is None


def test_compact_form_round_trip():
    position = Position.initial()
    assert Position.from_compact(position.to_compact()) == position


def test_repr_rebuilds_the_position():
    position = Position.from_compact("troll dF1,TG7")
    assert repr(position) == "Position.from_compact('troll dF1,TG7')"


def test_unknown_policy_is_rejected_for_either_side():
    with pytest.raises(ValueError):
        Position.initial().legal_moves("most")
    with pytest.raises(ValueError):
        Position.initial().pass_turn().legal_moves("most")
