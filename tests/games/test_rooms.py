"""games/ is in rooms that are layers (ARCHITECTURE.md): no two of its folders import each
other, and the rules room imports neither Django nor Celery. Read from the AST."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"


def _modules() -> dict[str, Path]:
    found = {}
    for path in GAMES.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path) -> set[str]:
    """Every module name an import statement of ``name`` names (``from a import b``: a, a.b)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
                for _ in range(node.level - 1):
                    package = package.rsplit(".", 1)[0]
                base = f"{package}.{base}" if base else package
            names |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return names


def test_no_two_folders_of_games_import_each_other():
    modules = _modules()

    def folder(module: str) -> str:
        return module if modules[module].name == "__init__.py" else module.rsplit(".", 1)[0]

    edges: dict[tuple[str, str], str] = {}
    for name, path in modules.items():
        for target in _imports(name, path) & modules.keys():
            a, b = folder(name), folder(target)
            if a != b:
                edges.setdefault((a, b), f"{name} -> {target}")
    both_ways = sorted(
        f"{edges[a, b]} and {edges[b, a]}" for a, b in edges if (b, a) in edges and a < b
    )
    assert both_ways == []


def test_the_rules_room_imports_neither_django_nor_celery():
    impure = sorted(
        f"{name}: {target}"
        for name, path in _modules().items()
        if name.startswith("games.rules")
        for target in _imports(name, path)
        if target.split(".")[0] in ("django", "celery")
    )
    assert impure == []
