from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
MODULES = [
    "core.base",
    "core.board",
    "bot.moves",
    "bot.search",
    "cli",
    "game",
    "core.movegen",
    "core.notation",
    "core.perft",
    "core.position",
]


def test_engine_imports_neither_django_nor_celery():
    code = (
        "import games.thud, games.thud.cli, games.thud.core.perft, sys; "
        "assert 'django' not in sys.modules and 'celery' not in sys.modules, "
        "sorted(m for m in sys.modules if m.startswith(('django', 'celery')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"games.thud.{name}")
    failures, _ = doctest.testmod(module, verbose=False)
    assert failures == 0


def test_public_names():
    import games.thud as thud

    for name in [
        "Position",
        "Move",
        "Side",
        "CapturePolicy",
        "Outcome",
        "Termination",
        "InvalidMoveError",
        "IllegalMoveError",
        "parse_move",
        "format_move",
        "parse_square",
        "format_square",
    ]:
        assert hasattr(thud, name), name
    assert [s.value for s in thud.Side] == ["dwarf", "troll"]
    assert [p.value for p in thud.CapturePolicy] == ["subset", "all_or_none", "all"]
    assert thud.Side.DWARF.other is thud.Side.TROLL
