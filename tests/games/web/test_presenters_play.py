"""games/web/presenters_play.py: the words around the board (pure, no database)."""

from __future__ import annotations

from types import SimpleNamespace

from django.utils import translation

from games.web.presenters_play import (
    captures_by_side,
    clock_faces,
    rule_line,
    timing_label,
    touch_line,
)

SEATS = [
    {"key": "a", "name": "Firsts", "player": "alice"},
    {"key": "b", "name": "Seconds", "player": "bob"},
]


def test_the_touch_rule_is_said_from_the_battles_own_times():
    line = rule_line(
        timing="quickfire", timed=True, think_ms=20_000, move_ms=3_500, commit_rule="touch"
    )
    assert line == "20 s to think; selecting a piece starts your 3.5 s to move it."


def test_without_the_touch_rule_the_line_says_the_piece_may_change():
    line = rule_line(
        timing="quickfire", timed=True, think_ms=15_000, move_ms=5_000, commit_rule="select"
    )
    assert line.startswith("15 s to think, then 5 s more") and "change" in line


def test_untimed_and_correspondence_battles_have_no_rule_line():
    kw = {"think_ms": 15_000, "move_ms": 5_000, "commit_rule": "touch"}
    assert rule_line(timing="quickfire", timed=False, **kw) == ""
    assert rule_line(timing="correspondence", timed=True, **kw) == ""


def test_a_touch_names_the_square_and_the_time_to_move_it():
    assert touch_line(touched="F1", mine=True, move_ms=5_000) == (
        "You touched F1: move it within 5 s."
    )
    assert touch_line(touched="F1", mine=False, move_ms=5_000) == "Your opponent touched F1."
    assert touch_line(touched="", mine=True, move_ms=5_000) == ""


def test_an_untimed_touch_names_the_square_and_no_time():
    line = touch_line(touched="D5", mine=True, move_ms=5_000, timed=False)
    assert line == "You touched D5: you must move it."
    assert " s" not in line.replace("must", "")


def test_an_untimed_battle_is_labelled_untimed_not_quickfire():
    assert timing_label(timing="quickfire", timing_display="Quickfire", timed=False) == "untimed"
    assert timing_label(timing="quickfire", timing_display="Thud lampo", timed=True) == (
        "Quickfire"
    )
    assert timing_label(timing="correspondence", timing_display="Corr.", timed=True) == "Corr."


def test_the_fast_clock_label_names_no_game_in_italian():
    with translation.override("it"):
        label = timing_label(timing="quickfire", timing_display="Thud lampo", timed=True)
    assert label and "Thud" not in label


def test_a_player_sees_the_opponents_clock_above_their_own():
    snap = {"status": "running", "side": "b", "remaining_ms": 12_340}
    faces = clock_faces(SEATS, viewer="a", snap=snap, think_ms=15_000)
    assert [(f["player"], f["mine"], f["active"]) for f in faces] == [
        ("bob", False, True),
        ("alice", True, False),
    ]
    assert faces[0]["time"] == "12.3" and faces[1]["time"] == "15"


def test_a_spectator_sees_the_first_side_above():
    snap = {"status": "paused", "side": "a", "remaining_ms": 4_000}
    faces = clock_faces(SEATS, viewer=None, snap=snap, think_ms=15_000)
    assert [f["key"] for f in faces] == ["a", "b"]
    assert not any(f["active"] for f in faces)  # a paused clock runs for nobody
    assert {f["time"] for f in faces} == {"–"}


def test_captures_are_counted_for_the_side_that_made_them():
    moves = [
        SimpleNamespace(side="b", captures=["F6"]),
        SimpleNamespace(side="a", captures=[]),
        SimpleNamespace(side="b", captures=["E4", "G4"]),
    ]
    assert captures_by_side(moves, ["a", "b"]) == {"a": 0, "b": 3}
