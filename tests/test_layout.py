"""The layout's promises that import-linter cannot state, read from the code's own import
statements (ARCHITECTURE.md): no import cycle between modules, no function-level import.
Who may import whom (the house's layers, the one door into tournaments, the pure cores) is
checked by ``lint-imports`` in ``make check``: the contracts are in pyproject.toml."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def app_files(app: str) -> list[Path]:
    return [p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]


# ------------------------------------------------------------------ the import graph

APPS = ("accounts", "front", "games", "outbox", "play", "ratings", "thud_site", "tournaments")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for app in APPS for p in app_files(app)}


def import_nodes(tree: ast.AST):
    """Each import statement with its enclosing function (or None), outside
    ``if TYPE_CHECKING:`` blocks (annotations only; never run)."""

    def walk(node: ast.AST, function: ast.AST | None):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from (pair for n in child.orelse for pair in walk_one(n, function))
                continue
            yield from walk_one(child, function)

    def walk_one(node: ast.AST, function: ast.AST | None):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, function
        inner = node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else function
        yield from walk(node, inner)

    yield from walk(tree, None)


def resolve(node: ast.Import | ast.ImportFrom, current: str, modules: dict[str, Path]) -> set[str]:
    """The project modules an import statement loads (a name from a module counts as that
    module; relative imports resolved)."""
    if isinstance(node, ast.Import):
        candidates = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = current.split(".")
            if modules[current].name != "__init__.py":
                package = package[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        candidates = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
            for alias in node.names
        ]
    found = set()
    for name in candidates:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        if name and name != current:
            found.add(name)
    return found


def import_graph() -> tuple[dict[str, set[str]], list[str]]:
    """Module -> project modules it imports; and every function-level import outside
    ``AppConfig.ready``."""
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    late: list[str] = []
    for name, path in modules.items():
        deps: set[str] = set()
        for node, function in import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            targets = resolve(node, name, modules)
            deps |= targets
            if targets and function is not None and function.name != "ready":
                late.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        graph[name] = deps
    return graph, late


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_between_project_modules():
    graph, _ = import_graph()
    assert cycles(graph) == []


def test_no_function_level_imports_to_dodge_cycles():
    """Imports sit at the top of the module; only ``AppConfig.ready`` imports late (it runs
    once the app registry is ready)."""
    _, late = import_graph()
    assert late == []


def two_way_folders(graph: dict[str, set[str]], packages: set[str]) -> list[str]:
    """Pairs of folders (packages) whose modules import each other both ways, one example
    import each way. A package's ``__init__`` belongs to the package, a module to its
    parent: so a package and its sub-package count as two folders too."""

    def folder(module: str) -> str:
        return module if module in packages else module.rpartition(".")[0]

    edges: dict[tuple[str, str], str] = {}
    for source, targets in graph.items():
        for target in targets:
            a, b = folder(source), folder(target)
            if a != b:
                edges.setdefault((a, b), f"{source} -> {target}")
    return sorted(f"{edges[a, b]} and {edges[b, a]}" for a, b in edges if (b, a) in edges and a < b)


def test_two_way_finder_finds_folders_importing_each_other():
    graph = {"p.a.x": {"p.b.y"}, "p.b.y": set(), "p.b.z": {"p.a"}, "p.a": set()}
    assert two_way_folders(graph, {"p", "p.a", "p.b"}) == ["p.a.x -> p.b.y and p.b.z -> p.a"]
    assert two_way_folders({"p.a.x": {"p.b.y"}, "p.b.y": set()}, {"p", "p.a", "p.b"}) == []


def test_no_two_folders_import_each_other():
    """Folders are layers at every depth (ARCHITECTURE.md): the rooms' order is import-linter's
    (pyproject.toml); this holds for the folders inside the rooms too."""
    graph, _ = import_graph()
    packages = {name for name, path in project_modules().items() if path.name == "__init__.py"}
    assert two_way_folders(graph, packages) == []
