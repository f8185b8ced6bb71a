from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
MODULES = [
    "",
    ".core.base",
    ".core.board",
    ".cli",
    ".core.diagram",
    ".core.movegen",
    ".core.notation",
    ".core.perft",
    ".core.play",
    ".core.position",
]


def test_engine_imports_neither_django_nor_celery():
    code = (
        "import games.cavalli, games.cavalli.cli, games.cavalli.core.perft, sys; "
        "assert 'django' not in sys.modules and 'celery' not in sys.modules, "
        "sorted(m for m in sys.modules if m.startswith(('django', 'celery')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_engine_does_not_import_the_thud_engine():
    code = "import games.cavalli.cli, sys; assert 'games.thud' not in sys.modules"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"games.cavalli{name}")
    failures, attempted = doctest.testmod(module, verbose=False)
    assert failures == 0


def test_public_api_for_the_platform():
    import games.cavalli as cavalli

    for name in [
        "Board",
        "Position",
        "Move",
        "Side",
        "Outcome",
        "Termination",
        "InvalidMoveError",
        "IllegalMoveError",
        "InvalidPositionError",
        "InvalidBoardError",
        "initial",
        "legal_moves",
        "apply",
        "outcome",
        "parse_move",
        "format_move",
        "diagram",
        "cells",
        "perft",
        "replay",
    ]:
        assert hasattr(cavalli, name), name
    assert [s.value for s in cavalli.Side] == ["white", "black"]
    board = cavalli.Board.from_seed(1)
    pos = cavalli.initial(board)
    move = cavalli.legal_moves(pos)[0]
    after = cavalli.apply(pos, move)
    assert cavalli.outcome(after) is None
    with pytest.raises(cavalli.IllegalMoveError):
        cavalli.apply(after, move)
