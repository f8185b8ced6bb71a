"""The pure rooms stay pure: each imports in a fresh interpreter with no Django settings,
and a match result is built and refused there (its message in English, untranslated).
Fails if Django (or anything that needs settings) creeps back into them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PURE_ROOMS = ("tournaments/rules", "tournaments/pairing", "tournaments/standings")

SCRIPT = """
import importlib, sys
from dataclasses import dataclass, field

for name in sys.argv[1:]:
    importlib.import_module(name)

from tournaments.rules import scales
from tournaments.rules.result import MatchResult, MatchResultError
from tournaments.rules.scales import WORDING_KEYS

@dataclass(frozen=True)
class Scale:
    game: str = "test"
    name: str = "Test"
    limits: tuple = (32, 8)
    weights: tuple = (1, 4)
    labels: tuple = ("B1 first", "B1 second", "B2 first", "B2 second")
    form_labels: tuple = ("1f", "1s", "2f", "2s")
    wording: dict = field(default_factory=lambda: dict.fromkeys(WORDING_KEYS, "x"))
    names: tuple = ("firsts", "seconds")
    names_each: tuple = ("first", "second")
    numbers_name: str = "numbers"
    options: dict = field(default_factory=dict)

scales.register([Scale()])
result = MatchResult.parse(["30", 2, "12", "8"], game="test")
assert result.points_of("b") == (8, 12), result.points_of("b")
try:
    MatchResult(33, 0, 0, 0, game="test")
except MatchResultError as error:
    assert str(error) == "B1 first must be between 0 and 32, not 33.", str(error)
    assert error.field == "battle1_first"
else:
    raise AssertionError("33 is over the limit")
leaked = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
assert not leaked, leaked
print("pure")
"""


def pure_modules() -> list[str]:
    names = []
    for room in PURE_ROOMS:
        for path in sorted((ROOT / room).glob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_the_pure_rooms_import_and_build_a_match_result_without_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *pure_modules()],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"


def test_the_list_names_every_pure_module():
    names = pure_modules()
    assert "tournaments.rules.result" in names
    assert "tournaments.rules.lifecycle" in names
    assert "tournaments.rules.timer" in names
    assert "tournaments.pairing.swiss" in names
    assert "tournaments.standings.scoring" in names
