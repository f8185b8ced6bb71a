"""The tournament manager names no game's pieces or numbers (issue 14).

A tournament plays one game behind ``tournaments.survivors.GameScale``: what its four
result numbers count, their limits, and the words that name its sides on pages, in CSV
columns and API keys all come from the game's own package (``games/thud``,
``games/cavalli``), handed down by the games app. Scans the source (code, strings and
comments) of every module under ``tournaments/`` except migrations (history, written
once) and every template under ``templates/tournaments/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Thud's pieces and moves, Cavalli's pieces, and Cavalli's numbers (its board 00-99,
#: whose sum 4950 is the most points a side can score). Not preceded by a letter, so
#: that "controlled" is no troll while "battle1_trolls" and "TROLL_POINTS" are.
WORDS = re.compile(
    r"(?<![a-z])(dwarf|troll|thudstone|hurl|shove|knight)|4950|4\.950|00\s*[–-]\s*99",
    re.IGNORECASE,
)
SOURCES = sorted(
    path
    for path in [
        *(ROOT / "tournaments").rglob("*.py"),
        *(ROOT / "templates" / "tournaments").rglob("*"),
    ]
    if path.is_file() and "migrations" not in path.parts
)


def offending_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if WORDS.search(line)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_file_names_no_pieces_or_numbers_of_any_game(path):
    assert offending_lines(path.read_text()) == []


def test_the_scan_covers_the_tournament_code_and_templates():
    names = {str(p.relative_to(ROOT)) for p in SOURCES}
    assert {"tournaments/survivors.py", "tournaments/models.py", "tournaments/stats.py"} <= names
    assert "templates/tournaments/_crosstable.html" in names
    assert not any("migrations" in name for name in names)


def test_the_guard_catches_pieces_and_numbers():
    assert offending_lines("battle1_trolls = models.PositiveSmallIntegerField()")
    assert offending_lines("MAX_DWARFS = 32")
    assert offending_lines('{% translate "Won as dwarfs" %}')
    assert offending_lines("limits=(4950, 4950)  # numbers 00–99")
    assert offending_lines("# a knight jumps")
    assert not offending_lines("request forgery waiting for a user-controlled URL")
    assert not offending_lines('first_side = words["first_side"]')
