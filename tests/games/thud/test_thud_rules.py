"""One small exact test per rule of thud-rules.md (§ numbers in the docstrings)."""

from __future__ import annotations

import pytest

from games.thud import CapturePolicy, Position, Side, Termination, parse_square
from games.thud.core.notation import parse_move_text

SUBSET = CapturePolicy.SUBSET
ALL_OR_NONE = CapturePolicy.ALL_OR_NONE
ALL = CapturePolicy.ALL


def pos(text: str) -> Position:
    return Position.from_compact(text)


def legal(position: Position, move: str, policy: CapturePolicy = SUBSET) -> bool:
    return position.is_legal(parse_move_text(move), policy)


def targets(position: Position, square: str) -> set[str]:
    from games.thud import format_square

    return {format_square(sq) for sq in position.targets_from(parse_square(square))}


def moves_between(position: Position, frm: str, to: str, policy=SUBSET) -> list[str]:
    return sorted(
        str(m)
        for m in position.legal_moves(policy)
        if m.from_sq == parse_square(frm) and m.to_sq == parse_square(to)
    )


# --- §4 dwarf moves -----------------------------------------------------------------------


def test_dwarf_slides_like_a_queen_until_a_piece_blocks():
    position = pos("dwarf dA6,dD6,TP10")
    assert {"B6", "C6"} <= targets(position, "A6")
    assert "D6" not in targets(position, "A6")
    assert "E6" not in targets(position, "A6")


def test_dwarf_slide_stops_before_the_thudstone():
    position = pos("dwarf dH3,TA6")
    assert {"H4", "H5", "H6", "H7"} <= targets(position, "H3")
    assert "H8" not in targets(position, "H3")
    assert "H9" not in targets(position, "H3")


def test_dwarf_never_captures_by_moving_next_to_a_troll():
    position = pos("dwarf dE2,TG4")
    move = parse_move_text("d E2-F3")
    assert position.is_legal(move)
    after = position.apply(move)
    assert after.troll_count == 1 and after.dwarf_count == 1


def test_lone_dwarf_in_the_open_has_all_its_queen_moves():
    position = pos("dwarf dF1,TP8")
    expected = {"G1", "H1", "J1", "K1"}  # east along rank 1
    expected |= {f"F{r}" for r in range(2, 16)}  # south down file F
    expected |= {"G2", "H3", "J4", "K5", "L6", "M7", "N8", "O9", "P10"}  # south-east
    expected |= {"E2", "D3", "C4", "B5", "A6"}  # south-west
    assert targets(position, "F1") == expected


# --- §5 hurls -----------------------------------------------------------------------------


def test_hurl_distance_up_to_line_length():
    # Line C4-D4-E4 (N = 3) fronted by E4, hurling east.
    assert legal(pos("dwarf dC4,dD4,dE4,TH4"), "d E4-H4 xH4")  # k = 3


def test_hurl_longer_than_line_is_illegal():
    assert not legal(pos("dwarf dC4,dD4,dE4,TJ4"), "d E4-J4 xJ4")  # k = 4 > N = 3
    assert legal(pos("dwarf dC4,dD4,dE4,TJ4"), "d E4-H4")  # the plain move is fine


def test_hurl_with_a_line_of_seven_dwarfs():
    line = ",".join(f"d{f}6" for f in "ABCDEFG")
    assert legal(pos(f"dwarf {line},TO6"), "d G6-O6 xO6")  # k = 7 = N
    assert not legal(pos(f"dwarf {line},TP6"), "d G6-P6 xP6")  # k = 8 > N


def test_hurl_with_a_line_of_fourteen_dwarfs_counts_every_dwarf():
    line = ",".join(f"d{f}6" for f in "ABCDEFGHJKLMN")  # 13 dwarfs, N = 13 from N6
    position = pos(f"dwarf {line},TP6")
    assert legal(position, "d N6-P6 xP6")
    # and from the other end, hurling west along a full 14-long line onto a lone troll
    line = ",".join(f"d{f}6" for f in "BCDEFGHJKLMNOP")
    assert legal(pos(f"dwarf {line},TA6"), "d B6-A6 xA6")


def test_lone_dwarf_may_hurl_onto_an_adjacent_troll():
    position = pos("dwarf dE4,TF4")
    assert legal(position, "d E4-F4 xF4")
    assert position.apply(parse_move_text("d E4-F4 xF4")).trolls == frozenset()


def test_lone_dwarf_cannot_hurl_two_squares():
    assert not legal(pos("dwarf dE4,TG4"), "d E4-G4 xG4")


def test_hurl_must_land_on_a_troll():
    position = pos("dwarf dC4,dD4,dE4,TH4")
    assert not legal(position, "d E4-G4 xG4")  # empty square: no capture to claim
    assert not legal(position, "d E4-J4 xJ4")  # beyond the troll
    assert all(m.to_sq in position.trolls for m in position.legal_moves() if m.captures)
    assert all(m.captures == (m.to_sq,) for m in position.legal_moves() if m.kind == "hurl")


def test_hurl_cannot_land_on_a_troll_behind_another_piece():
    assert not legal(pos("dwarf dC4,dD4,dE4,dG4,TH4"), "d E4-H4 xH4")
    assert not legal(pos("dwarf dC4,dD4,dE4,TG4,TH4"), "d E4-H4 xH4")


def test_thudstone_ends_the_line_behind_a_hurled_dwarf():
    # F8, G8 | stone H8 | J8: the stone breaks the line, so J8 is a lone dwarf (N = 1).
    position = pos("dwarf dF8,dG8,dJ8,TL8")
    assert not legal(position, "d J8-L8 xL8")
    assert legal(pos("dwarf dF8,dG8,dJ8,TK8"), "d J8-K8 xK8")


def test_hurl_cannot_fly_over_the_thudstone():
    assert not legal(pos("dwarf dE8,dF8,dG8,TJ8"), "d G8-J8 xJ8")


def test_hurl_works_along_diagonals():
    # Line D3-E4-F5 (N = 3) fronted by F5, hurling south-east two squares.
    assert legal(pos("dwarf dD3,dE4,dF5,TH7,TB5"), "d F5-H7 xH7")
    # Line G5-H6-J7 fronted by G5, hurling north-west two squares.
    assert legal(pos("dwarf dG5,dH6,dJ7,TE3"), "d G5-E3 xE3")


def test_line_can_be_hurled_from_either_end():
    position = pos("dwarf dD4,dE4,dF4,TC4,TJ4")
    assert legal(position, "d D4-C4 xC4")  # west end, k = 1
    assert legal(position, "d F4-J4 xJ4")  # east end, k = 3 = N
    assert not legal(position, "d E4-C4 xC4")  # the middle dwarf is not a line end


# --- §6 troll steps -----------------------------------------------------------------------


def test_troll_steps_one_square_onto_an_empty_square_only():
    position = pos("troll dF6,TE5")
    assert targets(position, "E5") == {"D4", "E4", "F4", "D5", "F5", "D6", "E6"}


def test_troll_step_may_capture_any_subset_of_adjacent_dwarfs():
    # E4 touches D3, E3 and F3: 2**3 = 8 capture choices.
    position = pos("troll dD3,dE3,dF3,TE5")
    assert moves_between(position, "E5", "E4") == [
        "T E5-E4",
        "T E5-E4 xD3",
        "T E5-E4 xD3 xE3",
        "T E5-E4 xD3 xE3 xF3",
        "T E5-E4 xD3 xF3",
        "T E5-E4 xE3",
        "T E5-E4 xE3 xF3",
        "T E5-E4 xF3",
    ]


def test_troll_cannot_capture_without_moving_next_to_the_dwarf():
    position = pos("troll dE3,TE4")
    after_sets = {m.captures for m in position.legal_moves() if m.to_sq == parse_square("E5")}
    assert after_sets == {()}


def test_troll_step_captures_are_removed():
    position = pos("troll dD3,dE3,dF3,TE5")
    after = position.play(parse_move_text("T E5-E4 xD3 xF3"))
    assert after.dwarfs == {parse_square("E3")}
    assert after.side_to_move is Side.DWARF


def test_troll_step_cannot_capture_a_dwarf_not_adjacent_to_the_landing_square():
    assert not legal(pos("troll dD3,dE3,dF3,dA6,TE5"), "T E5-E4 xA6")


def test_troll_cannot_step_onto_the_thudstone():
    position = pos("troll dA6,TG8")
    assert "H8" not in targets(position, "G8")


# --- §7 shoves ----------------------------------------------------------------------------


def test_shove_moves_line_end_two_squares_and_must_capture():
    position = pos("troll dB9,TE10,TF10")
    assert legal(position, "T E10-C10 xB9")
    assert not legal(position, "T E10-C10")  # a shove must capture
    assert parse_move_text("T E10-C10 xB9").kind == "shove"


def test_lone_troll_cannot_shove():
    assert not legal(pos("troll dB9,TE10"), "T E10-C10 xB9")


def test_shove_no_longer_than_the_line():
    position = pos("troll dA9,TE10,TF10")  # B10 is three squares away: N = 2
    assert not legal(position, "T E10-B10 xA9")
    three = pos("troll dA9,TE10,TF10,TG10")
    assert legal(three, "T E10-B10 xA9")


def test_shove_without_an_adjacent_dwarf_is_no_move():
    position = pos("troll dA6,TE10,TF10")
    assert "C10" not in targets(position, "E10")


def test_shove_captures_any_non_empty_subset_under_subset_policy():
    position = pos("troll dB9,dB11,TE10,TF10")  # C10 touches B9 and B11
    assert moves_between(position, "E10", "C10") == [
        "T E10-C10 xB11",
        "T E10-C10 xB9",
        "T E10-C10 xB9 xB11",
    ]


def test_shove_path_cannot_cross_a_piece():
    assert not legal(pos("troll dB9,dD10,TE10,TF10"), "T E10-C10 xB9")


def test_thudstone_blocks_troll_lines_and_paths():
    # E8 F8 G8 trolls; the stone on H8 stops G8 stepping or shoving east.
    position = pos("troll dK7,dK9,TE8,TF8,TG8")
    assert not {"H8", "J8", "K8"} & targets(position, "G8")
    # J8 | stone | G8: the stone ends the line, so J8 is alone and cannot shove east.
    position = pos("troll dM7,TG8,TJ8")
    assert not legal(position, "T J8-L8 xM7")
    assert legal(pos("troll dM7,TJ8,TK8"), "T K8-L8 xM7")


def test_one_square_troll_move_is_a_step_even_with_a_line_behind():
    position = pos("troll dB9,TD10,TE10,TF10")
    move = parse_move_text("T D10-C10 xB9")
    assert legal(position, str(move)) and move.kind == "step"


# --- capture policies (§6-7, A1/A2) --------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (SUBSET, 8),
        (ALL_OR_NONE, 2),
        (ALL, 1),
    ],
)
def test_step_capture_options_per_policy(policy, expected):
    position = pos("troll dD3,dE3,dF3,TE5")
    assert len(moves_between(position, "E5", "E4", policy)) == expected


def test_all_or_none_offers_nothing_or_everything():
    position = pos("troll dD3,dE3,dF3,TE5")
    assert moves_between(position, "E5", "E4", ALL_OR_NONE) == ["T E5-E4", "T E5-E4 xD3 xE3 xF3"]
    assert moves_between(position, "E5", "E4", ALL) == ["T E5-E4 xD3 xE3 xF3"]


def test_all_policy_step_next_to_no_dwarf_captures_nothing():
    position = pos("troll dD3,dE3,dF3,TE5")
    assert moves_between(position, "E5", "E6", ALL) == ["T E5-E6"]


@pytest.mark.parametrize("policy", [ALL_OR_NONE, ALL])
def test_shove_takes_every_adjacent_dwarf_outside_subset_policy(policy):
    position = pos("troll dB9,dB11,TE10,TF10")
    assert moves_between(position, "E10", "C10", policy) == ["T E10-C10 xB9 xB11"]


def test_policies_give_different_move_counts_on_the_same_position():
    position = pos("troll dD3,dE3,dF3,TE5")
    counts = [len(position.legal_moves(p)) for p in (SUBSET, ALL_OR_NONE, ALL)]
    assert counts[0] > counts[1] > counts[2]


# --- §8-9 end and score -------------------------------------------------------------------


def test_trolls_with_no_move_end_the_battle():
    # Troll on F1: its on-board neighbours G1, E2, F2, G2 all hold dwarfs.
    position = pos("troll dG1,dE2,dF2,dG2,TF1")
    assert position.legal_moves() == []
    outcome = position.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_LEGAL_MOVE
    assert (outcome.dwarf_points, outcome.troll_points) == (4, 4)
    assert outcome.winner is None


def test_boxed_troll_with_the_dwarfs_to_move_is_not_over():
    assert pos("dwarf dG1,dE2,dF2,dG2,TF1").outcome() is None


def test_capturing_the_last_troll_ends_the_battle():
    position = pos("dwarf dE4,dA6,TF4").play(parse_move_text("d E4-F4 xF4"))
    outcome = position.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_PIECES
    assert (outcome.dwarf_points, outcome.troll_points) == (2, 0)
    assert outcome.winner is Side.DWARF
    assert position.legal_moves() == []


def test_capturing_the_last_dwarf_ends_the_battle():
    position = pos("troll dE3,TE5").play(parse_move_text("T E5-E4 xE3"))
    outcome = position.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_PIECES
    assert (outcome.dwarf_points, outcome.troll_points) == (0, 4)


def test_opening_is_not_over():
    assert Position.initial().outcome() is None


@pytest.mark.parametrize(
    ("pieces", "score"),
    [
        ("dA6,dA7,dA9,dA10,dB5,TG7,TJ9", (5, 8)),  # S1's example: trolls win by 3
        ("dA6,dA7,dA9,dA10,dB5,TG7", (5, 4)),  # dwarfs win by 1
    ],
)
def test_score_is_one_per_dwarf_and_four_per_troll(pieces, score):
    assert pos(f"dwarf {pieces}").score() == score


def test_pass_turn_keeps_the_board_and_flips_the_side():
    position = Position.initial()
    passed = position.pass_turn()
    assert passed.side_to_move is Side.TROLL
    assert (passed.dwarfs, passed.trolls) == (position.dwarfs, position.trolls)
    assert len(passed.legal_moves()) == 32
