"""Nothing outside a game's own package names its pieces: games live behind games/rules/interface.py.

Scans every source file of the site (Python, templates, JavaScript, CSS; code, strings and
comments) for words that belong to one game — Thud's pieces and moves, Cavalli's knights,
its board's numbers and its points ceiling. A game's own files are where those words belong:
its engine package (``games/<game>/``), its presenter (``games/web/presenters_<game>.py``),
its templates (``templates/games/<game>/``) and its board's style sheet
(``static/css/games/<game>.css``). Migrations are history and are not
scanned. Stable outside names (Thud's CSV columns, API keys and record tags) come from
the game (``Game.words``, its tournament scale), not from the code that writes them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ["accounts", "front", "games", "play", "thud_site", "tournaments", "templates", "static"]
SUFFIXES = {".py", ".html", ".js", ".css", ".txt"}
GAMES = ["thud", "cavalli"]
OWNED = [
    *(f"games/{game}/" for game in GAMES),
    *(f"games/web/presenters_{game}.py" for game in GAMES),
    *(f"templates/games/{game}/" for game in GAMES),
    *(f"static/css/games/{game}.css" for game in GAMES),
]
#: Thud's pieces and moves, Cavalli's pieces, and Cavalli's numbers (its board 00-99, whose
#: sum 4950 is the most points a side can score). Not preceded by a letter, so that
#: "controlled" is no troll while "battle1_trolls" and "TROLL_POINTS" are. ("double", a
#: Cavalli square, is also plain English: a double-clicked button.)
WORDS = re.compile(
    r"(?<![a-z])(dwarf|troll|thudstone|hurl|shove|knight)|4950|4\.950|00\s*[–-]\s*99",
    re.IGNORECASE,
)


def owned(path: str) -> bool:
    return any(path == own or path.startswith(own) for own in OWNED)


def source_files() -> list[str]:
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix in SUFFIXES and "/migrations/" not in rel and not owned(rel):
                found.append(rel)
    return found


def offending_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if WORDS.search(line)]


@pytest.mark.parametrize("path", source_files())
def test_file_names_no_pieces_of_any_game(path):
    assert offending_lines((ROOT / path).read_text(encoding="utf-8")) == []


def test_the_scan_covers_the_site_and_each_games_own_files_exist():
    files = source_files()
    for expected in [
        "games/battles/play.py",
        "games/models/battle.py",
        "games/archive/export.py",
        "games/rules/records.py",
        "games/battles/otb_moves.py",
        "tournaments/rules/result.py",
        "tournaments/reports/stats.py",
        "templates/games/replay.html",
        "templates/tournaments/player.html",
        "static/js/clock.js",
        "static/css/games.css",
    ]:
        assert expected in files
    for own in OWNED:
        assert (ROOT / own).exists(), own


def test_the_guard_catches_a_piece_name():
    assert offending_lines('mine = "d" if side == "dwarf" else "T"')
    assert offending_lines("# the knight lands")
    assert offending_lines("limits=(4950, 4950)")
    assert offending_lines("numbers 00–99")
    assert not offending_lines("a user-controlled URL")
    assert offending_lines('.select_related("dwarfs__player")')
    assert not offending_lines('.select_related("first_entry__player", "second_entry__player")')
