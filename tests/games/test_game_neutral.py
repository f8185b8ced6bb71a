"""The battle machinery names no game's pieces: games live behind games/interface.py.

Scans the source (code, strings and comments) of the converted modules for words that
belong to one game. The only allowance is the pair of tournament seat columns
``Battle.dwarfs`` / ``Battle.trolls`` (tournament entries, kept by design: a tournament
match is a Thud match) when used as field names.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "games"
#: Modules that run any game. Still game-specific, and why:
#: - models.py: the Thud survivor columns of a tournament battle (``dwarf_count``, ...).
#: - presenters_thud.py / presenters_cavalli.py: each game's board presenter, by design.
#: - archive.py, records.py, otb_moves.py: game records, whose tags ("Dwarfs", "Result"
#:   as survivors) and replay are Thud's, a stable interface (DESIGN.md §8).
NEUTRAL = [
    "apps.py",
    "battles.py",
    "clock.py",
    "events.py",
    "interface.py",
    "permissions.py",
    "presenters.py",
    "registry.py",
    "signals.py",
    "sweep.py",
    "tasks.py",
    "urls.py",
    "views.py",
    "views_api.py",
    "views_records.py",
    "views_referee.py",
]
WORDS = re.compile(r"dwarf|troll|thudstone|knight|double|hurl|shove", re.IGNORECASE)
SEAT_FIELDS = re.compile(r"\b(dwarfs|trolls)(?=__|_id\b|\"|'|\.player|\s*[,)=:])")


def offending_lines(text: str) -> list[str]:
    return [
        line.strip()
        for line in text.splitlines()
        if WORDS.search(SEAT_FIELDS.sub("SEAT", line.replace("battle.dwarfs", "SEAT")))
    ]


@pytest.mark.parametrize("name", NEUTRAL)
def test_module_names_no_pieces_of_any_game(name):
    assert offending_lines((GAMES / name).read_text()) == []


def test_the_guard_catches_a_piece_name():
    assert offending_lines('mine = "d" if side == "dwarf" else "T"')
    assert offending_lines("# landing on a double")
    assert not offending_lines('.select_related("dwarfs__player", "trolls__player")')
