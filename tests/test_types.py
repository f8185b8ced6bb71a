"""mypy, as configured in pyproject.toml, passes: the whole project checked, the pure modules
(the engines, the clock, the game interface, pairing, standings, the round lifecycle) with
--strict's flags. `make lint` runs the same check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean():
    run = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
