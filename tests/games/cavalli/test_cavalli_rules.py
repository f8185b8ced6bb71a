"""One small test per rule of Battaglia di Cavalli (issue 14), on hand-made boards."""

from __future__ import annotations

import pytest

from games.cavalli import (
    Board,
    IllegalMoveError,
    Move,
    Position,
    Side,
    Termination,
    format_move,
    parse_move,
    parse_square,
)
from tests.games.cavalli.cavalli_naive import make_board

S = parse_square
RANK_1 = {f"{f}1": n for f, n in zip("ABCDEFGHIJ", range(12, 22), strict=True)}  # no doubles
RANK_10 = {f"{f}10": n for f, n in zip("ABCDEFGHIJ", range(23, 33), strict=True)}  # none either
# Every double parked where it does not get in the way unless a test moves it.
DOUBLES_AWAY = {"A5": 0, "B5": 11, "C5": 22, "D5": 33, "J5": 44, "A6": 55, "B6": 66, "C6": 77,
                "D6": 88, "J6": 99}  # fmt: skip


def board(**placed: int) -> Board:
    """Rank 1 and 10 without doubles, the doubles on ranks 5-6, then ``placed`` on top."""
    numbers = {**RANK_1, **RANK_10, **DOUBLES_AWAY}
    for sq, n in placed.items():
        # Whatever square held n before gets the number sq held, so it stays a permutation.
        old = next((k for k, v in numbers.items() if v == n), None)
        if old is not None and old != sq:
            if sq in numbers:
                numbers[old] = numbers[sq]
            else:
                del numbers[old]
        numbers[sq] = n
    return make_board(numbers)


def position(b: Board, *, white=None, black=None, unusable=(), to_move=Side.WHITE, ply=2):
    return Position(
        b,
        frozenset(S(sq) for sq in unusable),
        None if white is None else S(white),
        None if black is None else S(black),
        to_move,
        ply=ply,
    )


def names(moves) -> set[str]:
    return {format_move(m) for m in moves}


def targets(pos: Position) -> set[str]:
    return {format_move(Move(sq)) for sq in pos.targets()}


# --- the board ----------------------------------------------------------------------------


def test_files_run_a_to_j_left_to_right_and_ranks_1_to_10_bottom_to_top():
    text = "\n".join(
        " ".join(f"{(10 - line) * 10 - 10 + col:02d}" for col in range(10)) for line in range(10)
    )
    b = Board.parse(text)  # the first line is rank 10, the last line rank 1
    assert b.number_at(S("A1")) == 0
    assert b.number_at(S("J1")) == 9
    assert b.number_at(S("A2")) == 10
    assert b.number_at(S("J10")) == 99
    assert b.format().splitlines()[0].startswith("90 91")


# --- placements ---------------------------------------------------------------------------


def test_white_moves_first_by_placing_on_any_square_of_rank_1():
    pos = Position.initial(board())
    assert pos.to_move is Side.WHITE
    assert names(pos.legal_moves()) == {f"{f}1" for f in "ABCDEFGHIJ"}


def test_black_then_places_on_any_usable_square_of_rank_10():
    pos = Position.initial(board()).apply(Move(S("A1")))
    assert pos.to_move is Side.BLACK
    assert names(pos.legal_moves()) == {f"{f}10" for f in "ABCDEFGHIJ"}


def test_a_placement_cannot_go_to_a_square_made_unusable():
    pos = Position.initial(board(A1=57, C10=75)).apply(Move(S("A1")))
    assert "C10" not in names(pos.legal_moves())
    assert len(pos.legal_moves()) == 9
    with pytest.raises(IllegalMoveError, match="C10 is unusable"):
        parse_move("C10", pos)


def test_a_placement_cannot_go_onto_the_enemy_knight():
    # Only reachable when a turn was passed; the knight must still find a free square.
    pos = position(board(), black="C1", white=None, to_move=Side.WHITE)
    assert "C1" not in names(pos.legal_moves())
    assert len(pos.legal_moves()) == 9


# --- jumps --------------------------------------------------------------------------------


def test_after_both_placements_a_knight_jumps_like_a_chess_knight():
    pos = position(board(), white="E4", black="A10")
    assert targets(pos) == {"D2", "F2", "C3", "G3", "C5", "G5", "D6", "F6"}


def test_a_knight_near_the_edge_only_jumps_onto_the_board():
    pos = position(board(), white="A1", black="J10")
    assert targets(pos) == {"B3", "C2"}


def test_a_jump_cannot_land_on_an_unusable_square():
    pos = position(board(), white="E4", black="A10", unusable=["D2", "G5"])
    assert targets(pos) == {"F2", "C3", "G3", "C5", "D6", "F6"}
    with pytest.raises(IllegalMoveError, match="G5 is unusable"):
        pos.apply(Move(S("G5")))


def test_a_jump_cannot_land_on_a_square_the_enemy_knight_attacks():
    # Black on H5 attacks G3, F4, F6, G7, I7, J6, J4, I3: G3 and F6 are closed to white.
    pos = position(board(), white="E4", black="H5")
    assert targets(pos) == {"D2", "F2", "C3", "C5", "G5", "D6"}
    with pytest.raises(IllegalMoveError, match="attacked by the black knight"):
        pos.apply(Move(S("F6")))


def test_a_jump_cannot_land_on_the_enemy_knight():
    # Black on F6 (set up by hand) attacks none of white's targets but stands on one.
    pos = position(board(), white="E4", black="F6")
    assert targets(pos) == {"D2", "F2", "C3", "G3", "C5", "G5", "D6"}


def test_a_move_that_is_not_a_knight_jump_is_illegal():
    pos = position(board(), white="E4", black="A10")
    with pytest.raises(IllegalMoveError, match="not a knight's jump from E4"):
        parse_move("E5", pos)


# --- squares made unusable ----------------------------------------------------------------


def test_the_square_a_knight_leaves_becomes_unusable():
    pos = position(board(), white="E4", black="A10").apply(Move(S("F6")))
    assert not pos.is_usable(S("E4"))
    assert pos.white == S("F6")


def test_landing_on_57_makes_the_square_of_75_unusable():
    pos = position(board(F6=57, H8=75), white="E4", black="A10").apply(Move(S("F6")))
    assert pos.unusable == {S("E4"), S("H8")}


def test_leading_zero_numbers_reverse_too():
    b = board(F6=5, H8=50, D2=60, J9=6)
    after_05 = position(b, white="E4", black="A10").apply(Move(S("F6")))
    assert S("H8") in after_05.unusable
    after_60 = position(b, white="E4", black="A10").apply(Move(S("D2")))
    assert S("J9") in after_60.unusable


def test_a_reverse_already_unusable_changes_nothing_more():
    b = board(F6=57, H8=75)
    pos = position(b, white="E4", black="A10", unusable=["H8"]).apply(Move(S("F6")))
    assert pos.unusable == {S("E4"), S("H8")}


def test_a_reverse_under_the_enemy_knight_stays_usable_until_the_knight_leaves():
    b = board(F6=57, A9=75)
    pos = position(b, white="E4", black="A9").apply(Move(S("F6")))
    assert pos.unusable == {S("E4")}
    assert pos.is_usable(S("A9"))
    pos = pos.apply(Move(S("C10")))  # black leaves 75: now it is gone
    assert S("A9") in pos.unusable


def test_the_reverse_is_not_scored():
    pos = position(board(F6=57, H8=75), white="E4", black="A10").apply(Move(S("F6")))
    assert pos.scores == (57, 0)


# --- doubles ------------------------------------------------------------------------------


def test_landing_on_a_double_offers_each_other_usable_unoccupied_double():
    # 66 on F6. Black stands on 88 (H8) and attacks 99 (J7); 00 (A5) and 33 (D5) are gone.
    b = board(F6=66, H8=88, J7=99)
    pos = position(b, white="E4", black="H8", unusable=["A5", "D5"])
    offered = {m.choice for m in pos.legal_moves() if m.to == S("F6")}
    assert offered == {S(sq) for sq in ["B5", "C5", "J5", "A6", "C6", "J7"]}


def test_a_double_attacked_by_the_enemy_knight_can_still_be_chosen():
    b = board(F6=66, J7=99)
    pos = position(b, white="E4", black="H8")
    assert S("J7") in pos.attacked_by(Side.BLACK)
    after = pos.apply(parse_move("F6 xJ7", pos))
    assert S("J7") in after.unusable


def test_the_chosen_double_becomes_unusable_and_the_others_stay():
    pos = position(board(F6=66), white="E4", black="A10").apply(parse_move("F6 xC5", pos_e4()))
    assert pos.unusable == {S("E4"), S("C5")}
    assert pos.scores == (66, 0)


def pos_e4() -> Position:
    return position(board(F6=66), white="E4", black="A10")


def test_the_double_the_mover_leaves_is_not_offered():
    b = board(E4=33, F6=66)
    pos = position(b, white="E4", black="A10")
    offered = {m.choice for m in pos.legal_moves() if m.to == S("F6")}
    assert S("E4") not in offered
    assert len(offered) == 8  # ten doubles minus 66 and the 33 being left


def test_the_double_choice_is_compulsory():
    pos = pos_e4()
    assert Move(S("F6")) not in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="choose another double"):
        parse_move("F6", pos)


def test_with_no_double_left_a_double_landing_has_no_choice():
    others = ["A5", "B5", "C5", "D5", "J5", "A6", "C6", "D6", "J6"]
    pos = position(board(F6=66), white="E4", black="A10", unusable=others)
    assert [m for m in pos.legal_moves() if m.to == S("F6")] == [Move(S("F6"))]
    with pytest.raises(IllegalMoveError, match="no other usable, unoccupied double"):
        parse_move("F6 xA5", pos)


def test_a_choice_after_a_number_that_is_not_a_double_is_illegal():
    pos = position(board(F6=57), white="E4", black="A10")
    with pytest.raises(IllegalMoveError, match="not a double"):
        parse_move("F6 xB5", pos)


def test_a_choice_of_an_unusable_double_is_illegal():
    pos = position(board(F6=66), white="E4", black="A10", unusable=["B5"])
    with pytest.raises(IllegalMoveError, match="B5 is not a usable, unoccupied double"):
        parse_move("F6 xB5", pos)


def test_00_is_a_double_and_05_is_not():
    pos = position(board(F6=0, D2=5), white="E4", black="A10")
    assert len([m for m in pos.legal_moves() if m.to == S("F6")]) == 9
    assert [m for m in pos.legal_moves() if m.to == S("D2")] == [Move(S("D2"))]


# --- placements are landings --------------------------------------------------------------


def test_a_placement_on_57_makes_75_unusable():
    pos = Position.initial(board(C1=57, H4=75)).apply(Move(S("C1")))
    assert pos.unusable == {S("H4")}


def test_a_placement_on_a_double_must_choose_another_double():
    pos = Position.initial(board(C1=44))
    assert Move(S("C1")) not in pos.legal_moves()
    assert len([m for m in pos.legal_moves() if m.to == S("C1")]) == 9
    after = pos.apply(parse_move("C1 xB6", pos))
    assert after.unusable == {S("B6")}
    assert after.scores == (44, 0)


# --- scores and the end -------------------------------------------------------------------


def test_each_side_scores_every_number_it_lands_on_the_placement_included():
    b = board(C1=12, E10=81, D3=45, D8=70)
    pos = Position.initial(b)
    for text in ["C1", "E10", "D3", "D8"]:
        pos = pos.apply(parse_move(text, pos))
    assert pos.scores == (12 + 45, 81 + 70)
    assert pos.ply == 4


def test_the_game_ends_when_the_side_to_move_has_no_legal_move_and_more_points_win():
    pos = Position(board(), frozenset({S("B3"), S("C2")}), S("A1"), S("J10"), Side.WHITE, 40, 55, 9)
    assert pos.legal_moves() == []
    outcome = pos.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_LEGAL_MOVE
    assert (outcome.white_points, outcome.black_points) == (40, 55)
    assert outcome.winner is Side.BLACK


def test_equal_points_at_the_end_is_a_draw():
    pos = Position(board(), frozenset({S("B3"), S("C2")}), S("A1"), S("J10"), Side.WHITE, 70, 70, 9)
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner is None and outcome.is_draw


def test_the_game_goes_on_while_the_side_to_move_has_a_move_even_if_the_other_is_stuck():
    # Black on J10 is walled in, but it is white's turn and white can move.
    pos = Position(board(), frozenset({S("H9"), S("I8")}), S("E4"), S("J10"), Side.WHITE)
    assert pos.outcome() is None
    after = pos.apply(pos.legal_moves()[0])
    assert after.outcome() is not None


def test_an_illegal_move_raises_and_the_position_is_unchanged():
    pos = position(board(), white="E4", black="A10")
    before = pos.to_compact()
    with pytest.raises(IllegalMoveError):
        pos.apply(Move(S("E5")))
    assert pos.to_compact() == before
