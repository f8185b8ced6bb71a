"""The layout's promises, read from the code's own import statements (ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    """Every module an absolute import statement in ``path`` names, function-level too."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def app_files(app: str) -> list[Path]:
    return [p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]


def test_games_and_play_reach_tournaments_only_through_its_one_door():
    crossings = {
        f"{path.relative_to(ROOT)}: {name}"
        for app in ("games", "play")
        for path in app_files(app)
        for name in imported_modules(path)
        if (name == "tournaments" or name.startswith("tournaments."))
        and not name.startswith("tournaments.for_games")
    }
    assert not crossings


def test_tournaments_never_imports_games_or_play():
    crossings = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in app_files("tournaments")
        for name in imported_modules(path)
        if name.split(".")[0] in ("games", "play")
    }
    assert not crossings


def test_only_urls_and_the_door_reach_into_the_web_room():
    """The domain rooms never import views, URL confs or forms: ``thud_site/urls.py``
    includes the URL confs, and ``for_games`` hands the referee's result form to games."""
    allowed = {ROOT / "thud_site" / "urls.py", ROOT / "tournaments" / "for_games.py"}
    crossings = {
        f"{path.relative_to(ROOT)}: {name}"
        for app in ("tournaments", "accounts", "thud_site", "outbox")
        for path in app_files(app)
        if "web" not in path.relative_to(ROOT).parts and path not in allowed
        for name in imported_modules(path)
        if name.startswith("tournaments.web")
    }
    assert not crossings
